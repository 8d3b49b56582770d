/* chrF++'s per-item statistics (scorer.metrics.chrf_plus_plus), compiled: about a third of a
 * warm WebNLG+ 2020 job's CPU in Python (Counters of every n-gram of every output).
 *
 * A text's n-grams of each order are kept as a table: its distinct n-grams sorted, each with
 * how often it occurs, and the order's total. An n-gram is its units packed exactly (at most
 * 6 units of 21 bits: any code point), so equal keys are equal n-grams. The units are the
 * characters of chrF.py's character list, or the words of its word list, each word given as
 * one code point by the caller (the references' words numbered; an output's word no
 * reference has gets one that none has). Clipped matches are then a merge of two sorted
 * tables, whole numbers as Counter's sums. The sentence F that picks each item's reference
 * is the Python arithmetic, operation for operation (no fused multiply-adds: setup.py).
 * chrf_plus_plus.ChrFPlusPlus._best is the same in Python (the fallback where this is not
 * built, and for orders above 6), held equal by tests/scorer/metrics/test_compiled_chrf.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ORDER 6
#define EPSILON 1e-16

typedef struct {
    uint64_t hi, lo;  /* units 0-2 and 3-5, 21 bits each */
    uint64_t count;
} Entry;

/* A table's layout (in a bytes object or a buffer): order, then per order n = 1..order its
 * first entry, number of distinct n-grams and number of n-grams, then the entries. */
typedef struct {
    uint64_t start, distinct, total;
} Order;

typedef struct {
    uint64_t order;
    Order orders[MAX_ORDER];
} Header;

static int compare_entries(const void *a, const void *b) {
    const Entry *x = a, *y = b;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return 0;
}

/* The number of entries a table of ``units`` (length n) has at most, up to ``order``. */
static Py_ssize_t most_entries(Py_ssize_t n, int order) {
    Py_ssize_t total = 0;
    for (int k = 1; k <= order; k++) total += n >= k ? n - k + 1 : 0;
    return total;
}

/* The table of ``units`` into header and entries (room for most_entries); returns the number
 * of entries written. */
static Py_ssize_t fill_table(const Py_UCS4 *units, Py_ssize_t n, int order, Header *header,
                             Entry *entries) {
    Py_ssize_t written = 0;
    header->order = (uint64_t)order;
    for (int k = 1; k <= order; k++) {
        Entry *first = entries + written;
        Py_ssize_t count = n >= k ? n - k + 1 : 0;
        for (Py_ssize_t end = k; end <= n; end++) {
            uint64_t part[2] = {0, 0};
            for (int u = 0; u < k; u++) {
                uint64_t unit = units[end - k + u];
                part[u / 3] |= unit << (21 * (2 - u % 3));
            }
            first[end - k].hi = part[0];
            first[end - k].lo = part[1];
            first[end - k].count = 1;
        }
        qsort(first, (size_t)count, sizeof(Entry), compare_entries);
        Py_ssize_t distinct = 0;
        for (Py_ssize_t x = 0; x < count; x++) {
            if (distinct && first[distinct - 1].hi == first[x].hi &&
                first[distinct - 1].lo == first[x].lo)
                first[distinct - 1].count++;
            else
                first[distinct++] = first[x];
        }
        header->orders[k - 1].start = (uint64_t)written;
        header->orders[k - 1].distinct = (uint64_t)distinct;
        header->orders[k - 1].total = (uint64_t)count;
        written += distinct;
    }
    return written;
}

/* A str's code points, checked to fit 21 bits (every code point does). */
static Py_UCS4 *units_of(PyObject *text, Py_ssize_t *n) {
    *n = PyUnicode_GET_LENGTH(text);
    return PyUnicode_AsUCS4Copy(text);
}

static int valid_order(long order) {
    if (order < 0 || order > MAX_ORDER) {
        PyErr_Format(PyExc_ValueError, "orders of 0 to %d only, not %ld", MAX_ORDER, order);
        return 0;
    }
    return 1;
}

/* table(units, order) -> bytes: the n-gram table of a str's code points, orders 1..order. */
static PyObject *py_table(PyObject *self, PyObject *args) {
    PyObject *text;
    long order;
    (void)self;
    if (!PyArg_ParseTuple(args, "Ul", &text, &order)) return NULL;
    if (!valid_order(order)) return NULL;
    Py_ssize_t n;
    Py_UCS4 *units = units_of(text, &n);
    if (!units) return NULL;
    Py_ssize_t most = most_entries(n, (int)order);
    Entry *entries = PyMem_Malloc(sizeof(Entry) * (size_t)(most + 1));
    if (!entries) { PyMem_Free(units); return PyErr_NoMemory(); }
    Header header;
    memset(&header, 0, sizeof header);
    Py_ssize_t written = fill_table(units, n, (int)order, &header, entries);
    PyMem_Free(units);
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof header + sizeof(Entry) * (size_t)written));
    if (result) {
        char *out = PyBytes_AS_STRING(result);
        memcpy(out, &header, sizeof header);
        memcpy(out + sizeof header, entries, sizeof(Entry) * (size_t)written);
    }
    PyMem_Free(entries);
    return result;
}

/* ngram_precrecf's F of one order (chrf_plus_plus.precision_recall_f). */
static double order_f(double matching, double ref, double hyp, double factor) {
    double precision = hyp > 0 ? matching / hyp : EPSILON;
    double recall = ref > 0 ? matching / ref : EPSILON;
    double denominator = factor * precision + recall;
    return denominator > 0 ? (1 + factor) * precision * recall / denominator : EPSILON;
}

/* _matches of one table pair into row (3 numbers per order of the output's table). */
static void matches(const Header *ref, const Entry *ref_entries, const Header *hyp,
                    const Entry *hyp_entries, double *row) {
    for (uint64_t k = 0; k < hyp->order; k++) {
        const Order *r = &ref->orders[k], *h = &hyp->orders[k];
        if (k >= ref->order || r->distinct == 0) {
            row[3 * k] = row[3 * k + 1] = row[3 * k + 2] = 0.0;
            continue;
        }
        const Entry *a = ref_entries + r->start, *b = hyp_entries + h->start;
        uint64_t x = 0, y = 0, matching = 0;
        while (x < r->distinct && y < h->distinct) {
            int c = compare_entries(a + x, b + y);
            if (c < 0) x++;
            else if (c > 0) y++;
            else {
                matching += a[x].count < b[y].count ? a[x].count : b[y].count;
                x++;
                y++;
            }
        }
        row[3 * k] = (double)matching;
        row[3 * k + 1] = (double)r->total;
        row[3 * k + 2] = (double)h->total;
    }
}

/* _sum_f over the orders of row[0 .. 3 * count). */
static double sum_f(const double *row, uint64_t count, double factor, int only_matched) {
    double total = 0;
    for (uint64_t k = 0; k < count; k++) {
        if (only_matched && !row[3 * k]) continue;
        total += order_f(row[3 * k], row[3 * k + 1], row[3 * k + 2], factor);
    }
    return total;
}

/* A reference table from a bytes object, checked. */
static int read_table(PyObject *table, Header *header, const Entry **entries) {
    if (!PyBytes_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "a reference's tables are bytes (table())");
        return 0;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(table);
    const char *data = PyBytes_AS_STRING(table);
    if (size < (Py_ssize_t)sizeof(Header)) goto bad;
    memcpy(header, data, sizeof(Header));
    if (header->order > MAX_ORDER) goto bad;
    uint64_t entries_size = (uint64_t)(size - (Py_ssize_t)sizeof(Header));
    if (entries_size % sizeof(Entry)) goto bad;
    for (uint64_t k = 0; k < header->order; k++)
        if (header->orders[k].start + header->orders[k].distinct > entries_size / sizeof(Entry))
            goto bad;
    *entries = (const Entry *)(data + sizeof(Header));
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not an n-gram table (table())");
    return 0;
}

/* best(chars, words, references, char_order, word_order, factor) -> list of floats: the row
 * (matches, reference n-grams, output n-grams per order: characters, then words) of the
 * reference whose sentence F is highest (the first of equal ones); zeros for none.
 * ``references`` is a sequence of (characters' table, words' table) pairs. */
static PyObject *py_best(PyObject *self, PyObject *args) {
    PyObject *chars, *words, *references;
    long char_order, word_order;
    double factor;
    (void)self;
    if (!PyArg_ParseTuple(args, "UUOlld", &chars, &words, &references, &char_order,
                          &word_order, &factor))
        return NULL;
    if (!valid_order(char_order) || !valid_order(word_order)) return NULL;
    PyObject *items = PySequence_Fast(references, "references must be a sequence");
    if (!items) return NULL;
    Py_ssize_t width = 3 * (char_order + word_order);
    double row[6 * MAX_ORDER], best_row[6 * MAX_ORDER];
    memset(best_row, 0, sizeof best_row);
    Header hyp_chars, hyp_words;
    memset(&hyp_chars, 0, sizeof hyp_chars);
    memset(&hyp_words, 0, sizeof hyp_words);
    Entry *char_entries = NULL, *word_entries = NULL;
    Py_UCS4 *char_units = NULL, *word_units = NULL;
    PyObject *result = NULL;
    Py_ssize_t nc, nw;
    char_units = units_of(chars, &nc);
    word_units = units_of(words, &nw);
    if (!char_units || !word_units) goto done;
    char_entries = PyMem_Malloc(sizeof(Entry) * (size_t)(most_entries(nc, (int)char_order) + 1));
    word_entries = PyMem_Malloc(sizeof(Entry) * (size_t)(most_entries(nw, (int)word_order) + 1));
    if (!char_entries || !word_entries) { PyErr_NoMemory(); goto done; }
    fill_table(char_units, nc, (int)char_order, &hyp_chars, char_entries);
    fill_table(word_units, nw, (int)word_order, &hyp_words, word_entries);
    double best_f = -1.0, orders = (double)(char_order + word_order);
    for (Py_ssize_t r = 0; r < PySequence_Fast_GET_SIZE(items); r++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(items, r);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "each reference is a (characters, words) pair of tables");
            goto done;
        }
        Header ref_chars, ref_words;
        const Entry *ref_char_entries, *ref_word_entries;
        if (!read_table(PyTuple_GET_ITEM(pair, 0), &ref_chars, &ref_char_entries) ||
            !read_table(PyTuple_GET_ITEM(pair, 1), &ref_words, &ref_word_entries))
            goto done;
        matches(&ref_chars, ref_char_entries, &hyp_chars, char_entries, row);
        matches(&ref_words, ref_word_entries, &hyp_words, word_entries, row + 3 * char_order);
        double c = sum_f(row, (uint64_t)char_order, factor, 1);
        double w = sum_f(row + 3 * char_order, (uint64_t)word_order, factor, 1);
        double sentence_f = (c + w) / orders;
        if (sentence_f > best_f) {
            best_f = sentence_f;
            memcpy(best_row, row, sizeof(double) * (size_t)width);
        }
    }
    result = PyList_New(width);
    if (!result) goto done;
    for (Py_ssize_t k = 0; k < width; k++) {
        PyObject *value = PyFloat_FromDouble(best_row[k]);
        if (!value) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, k, value);
    }
done:
    Py_DECREF(items);
    PyMem_Free(char_units);
    PyMem_Free(word_units);
    PyMem_Free(char_entries);
    PyMem_Free(word_entries);
    return result;
}

static PyMethodDef methods[] = {
    {"table", py_table, METH_VARARGS,
     "table(units, order): the n-grams (orders 1..order, at most 6) of a str's code points, "
     "counted and sorted, as bytes for best()."},
    {"best", py_best, METH_VARARGS,
     "best(chars, words, references, char_order, word_order, factor): the statistics row of "
     "the output's best reference (references: (chars table, words table) pairs)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chrf",
                                    "chrF++'s statistics, compiled (scorer.metrics.chrf_plus_plus).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__chrf(void) { return PyModule_Create(&module); }
