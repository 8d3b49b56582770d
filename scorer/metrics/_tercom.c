/* TER's shift search as sacreBLEU's tercom port (sacrebleu.metrics.lib_ter, 2.6) runs it,
 * compiled: the hot loop of WebNLG's TER (about 3/4 of a warm WebNLG 2017 job in Python).
 *
 * The same steps as lib_ter, in the same order, so that every tie falls the same way:
 * the beam edit distance (row i keeps the columns around floor(i * |ref| / |out|), 25 to each
 * side, the last row to the end; cells outside are "infinite", 1e16, as the port's), its trace
 * with the port's preference (substitution or match, then deletion, then insertion), the
 * alignment of the flipped trace, the candidate shifts with the port's filters and order, the
 * ranking (drop in distance, then the longest run, the earliest start, the earliest target),
 * the 1,000-candidate cap (the round that reaches it is discarded). A candidate's rows are
 * computed from the first word where it differs from the current output, as the port's
 * prefix cache does (its rows are the same numbers: the beam depends on the row and the
 * lengths only, and shifting keeps the length).
 *
 * Words come as code points (scorer.metrics.tercom_search maps each distinct word to one),
 * so equality of words is equality of integers. scorer.metrics.tercom_search._Search is the
 * same search in Python (the fallback where this is not built), held equal to this one and to
 * sacreBLEU by tests/scorer/metrics/test_tercom_search.py and test_compiled_tercom.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BEAM_WIDTH 25
#define MAX_SHIFT_SIZE 10
#define MAX_SHIFT_DIST 50
#define MAX_SHIFT_CANDIDATES 1000
#define INF 10000000000000000LL /* the port's _INT_INFINITY, int(1e16) */

enum { OP_NOP = ' ', OP_SUB = 's', OP_INS = 'i', OP_DEL = 'd', OP_UNDEF = 'x' };

typedef struct {
    Py_ssize_t n, m;          /* output and reference lengths (words) */
    const Py_UCS4 *ref;
    Py_ssize_t *lo, *hi;      /* each row's beam: columns [lo, hi) */
    int64_t *cost;            /* (n + 1) x (m + 1): the current output's matrix */
    char *op;                 /* its operations, for the trace */
    int64_t *scratch;         /* two rows for a candidate's distance */
} Search;

/* The beam of each row, as _edit_distance computes it (the same float arithmetic). */
static void beam(Search *s) {
    Py_ssize_t n = s->n, m = s->m;
    double ratio = n ? (double)m / (double)n : 1.0;
    Py_ssize_t width = BEAM_WIDTH < ratio / 2 ? (Py_ssize_t)ceil(ratio / 2 + BEAM_WIDTH)
                                              : BEAM_WIDTH;
    s->lo[0] = 0;
    s->hi[0] = m + 1;
    for (Py_ssize_t i = 1; i <= n; i++) {
        Py_ssize_t diagonal = (Py_ssize_t)floor((double)i * ratio);
        Py_ssize_t lo = diagonal - width, hi = diagonal + width;
        s->lo[i] = lo < 0 ? 0 : lo;
        s->hi[i] = (i == n || hi > m + 1) ? m + 1 : hi;
    }
}

/* Row i of the beam from the row before (``prev``), the output's word ``word`` at i - 1;
 * ``ops`` (may be NULL) gets the operation the port records per cell. */
static void fill_row(const Search *s, Py_ssize_t i, Py_UCS4 word, const int64_t *prev,
                     int64_t *row, char *ops) {
    Py_ssize_t m = s->m, lo = s->lo[i], hi = s->hi[i];
    const Py_UCS4 *ref = s->ref;
    for (Py_ssize_t j = 0; j <= m; j++) row[j] = INF;
    if (ops) memset(ops, OP_UNDEF, (size_t)(m + 1));
    for (Py_ssize_t j = lo; j < hi; j++) {
        if (j == 0) {
            row[0] = prev[0] + 1;
            if (ops) ops[0] = OP_DEL;
            continue;
        }
        int64_t best = INF, candidate;
        char chosen = OP_UNDEF;
        int same = word == ref[j - 1];
        candidate = prev[j - 1] + (same ? 0 : 1);
        if (best > candidate) { best = candidate; chosen = same ? OP_NOP : OP_SUB; }
        candidate = prev[j] + 1;
        if (best > candidate) { best = candidate; chosen = OP_DEL; }
        candidate = row[j - 1] + 1;
        if (best > candidate) { best = candidate; chosen = OP_INS; }
        row[j] = best;
        if (ops) ops[j] = chosen;
    }
}

/* The current output's matrix from row ``from`` + 1 on (rows up to ``from`` are kept). */
static void fill_matrix(Search *s, const Py_UCS4 *hyp, Py_ssize_t from) {
    Py_ssize_t width = s->m + 1;
    for (Py_ssize_t i = from + 1; i <= s->n; i++)
        fill_row(s, i, hyp[i - 1], s->cost + (i - 1) * width, s->cost + i * width,
                 s->op + i * width);
}

/* The distance of ``shifted``, whose first ``same`` words are the current output's. */
static int64_t candidate_distance(Search *s, const Py_UCS4 *shifted, Py_ssize_t same) {
    Py_ssize_t width = s->m + 1;
    if (same >= s->n) return s->cost[s->n * width + s->m];
    const int64_t *prev = s->cost + same * width;
    int64_t *rows[2] = {s->scratch, s->scratch + width};
    int64_t *row = rows[0];
    for (Py_ssize_t i = same + 1; i <= s->n; i++) {
        row = rows[i & 1];
        fill_row(s, i, shifted[i - 1], prev, row, NULL);
        prev = row;
    }
    return row[s->m];
}

/* lib_ter._perform_shift into ``out``. */
static void perform_shift(const Py_UCS4 *words, Py_ssize_t n, Py_ssize_t start,
                          Py_ssize_t length, Py_ssize_t target, Py_UCS4 *out) {
    Py_ssize_t k = 0;
#define COPY(a, b) for (Py_ssize_t x = (a); x < (b); x++) out[k++] = words[x]
    if (target < start) {
        COPY(0, target); COPY(start, start + length); COPY(target, start); COPY(start + length, n);
    } else if (target > start + length) {
        COPY(0, start); COPY(start + length, target); COPY(start, start + length); COPY(target, n);
    } else { /* a target within the run: Python's slices stop at the end, so does this */
        Py_ssize_t end = length + target < n ? length + target : n;
        COPY(0, start); COPY(start + length, end); COPY(start, start + length); COPY(end, n);
    }
#undef COPY
}

/* Working memory of one search, freed by release. */
typedef struct {
    Py_ssize_t *align, *hyp_sum, *ref_sum;
    Py_UCS4 *hyp, *shifted, *best;
    char *trace;
} Buffers;

/* The alignment (reference position -> output position) and the prefix sums of the error
 * flags of output and reference words, from the flipped trace (lib_ter.trace_to_alignment). */
static void alignment(const Search *s, Buffers *b) {
    Py_ssize_t i = s->n, j = s->m, width = s->m + 1, count = 0;
    while (i > 0 || j > 0) {
        char op = s->op[i * width + j];
        if (i == 0) op = OP_INS; /* row 0: the port's initial row, insertions */
        b->trace[count++] = op;
        if (op == OP_SUB || op == OP_NOP) { i--; j--; }
        else if (op == OP_INS) j--;
        else i--;
    }
    Py_ssize_t pos_hyp = -1, pos_ref = -1;
    b->hyp_sum[0] = b->ref_sum[0] = 0;
    while (count > 0) {
        char op = b->trace[--count]; /* forwards; deletions and insertions flipped */
        if (op == OP_DEL) {          /* flipped: an inserted output word */
            pos_hyp++;
            b->hyp_sum[pos_hyp + 1] = b->hyp_sum[pos_hyp] + 1;
        } else if (op == OP_INS) {   /* flipped: a deleted reference word */
            pos_ref++;
            b->align[pos_ref] = pos_hyp;
            b->ref_sum[pos_ref + 1] = b->ref_sum[pos_ref] + 1;
        } else {
            int error = op == OP_SUB;
            pos_hyp++;
            pos_ref++;
            b->align[pos_ref] = pos_hyp;
            b->hyp_sum[pos_hyp + 1] = b->hyp_sum[pos_hyp] + error;
            b->ref_sum[pos_ref + 1] = b->ref_sum[pos_ref] + error;
        }
    }
}

/* One round of lib_ter._shift: 1 and the best shift in b->best (``*delta`` its drop in
 * distance, ``*same`` its first changed position), or 0 when there is none; ``*checked``
 * counts the candidates, across rounds. */
static int best_shift(Search *s, Buffers *b, int64_t distance, long *checked, int64_t *delta,
                      Py_ssize_t *same) {
    Py_ssize_t n = s->n, m = s->m;
    const Py_UCS4 *hyp = b->hyp, *ref = s->ref;
    int found = 0;
    int64_t best_score = 0;
    Py_ssize_t best_length = 0, best_start = 0, best_target = 0;
    alignment(s, b);
    for (Py_ssize_t start_h = 0; start_h < n; start_h++) {
        for (Py_ssize_t start_r = 0; start_r < m; start_r++) {
            if (labs((long)(start_r - start_h)) > MAX_SHIFT_DIST) continue;
            Py_ssize_t length = 0;
            while (hyp[start_h + length] == ref[start_r + length] && length < MAX_SHIFT_SIZE) {
                length++;
                int tried = 0;
                if (b->hyp_sum[start_h + length] != b->hyp_sum[start_h] &&
                    b->ref_sum[start_r + length] != b->ref_sum[start_r] &&
                    !(start_h <= b->align[start_r] && b->align[start_r] < start_h + length)) {
                    Py_ssize_t previous = -1;
                    tried = 1;
                    for (Py_ssize_t offset = -1; offset < length; offset++) {
                        Py_ssize_t target =
                            start_r + offset == -1 ? 0 : b->align[start_r + offset] + 1;
                        if (target == previous) continue;
                        previous = target;
                        perform_shift(hyp, n, start_h, length, target, b->shifted);
                        Py_ssize_t first = start_h < target ? start_h : target;
                        int64_t score = distance - candidate_distance(s, b->shifted, first);
                        ++*checked;
                        if (!found || score > best_score ||
                            (score == best_score &&
                             (length > best_length ||
                              (length == best_length &&
                               (start_h < best_start ||
                                (start_h == best_start && target < best_target)))))) {
                            found = 1;
                            best_score = score;
                            best_length = length;
                            best_start = start_h;
                            best_target = target;
                        }
                    }
                }
                if (tried && *checked >= MAX_SHIFT_CANDIDATES) goto done;
                if (n == start_h + length || m == start_r + length) break;
            }
        }
    }
done:
    if (!found) return 0;
    perform_shift(hyp, n, best_start, best_length, best_target, b->best);
    *delta = best_score;
    *same = best_start < best_target ? best_start : best_target;
    return 1;
}

/* lib_ter.translation_edit_rate's number of edits for a non-empty reference; -1 when out of
 * memory. */
static int64_t edits(const Py_UCS4 *words_hyp, Py_ssize_t n, const Py_UCS4 *ref, Py_ssize_t m) {
    Search s = {n, m, ref, NULL, NULL, NULL, NULL, NULL};
    Buffers b = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    int64_t result = -1;
    size_t cells = (size_t)(n + 1) * (size_t)(m + 1);
    s.lo = malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    s.hi = malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    s.cost = malloc(sizeof(int64_t) * cells);
    s.op = malloc(cells);
    s.scratch = malloc(sizeof(int64_t) * 2 * (size_t)(m + 1));
    b.align = malloc(sizeof(Py_ssize_t) * (size_t)(m + 1));
    b.hyp_sum = malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    b.ref_sum = malloc(sizeof(Py_ssize_t) * (size_t)(m + 1));
    b.hyp = malloc(sizeof(Py_UCS4) * (size_t)(n + 1));
    b.shifted = malloc(sizeof(Py_UCS4) * (size_t)(n + 1));
    b.best = malloc(sizeof(Py_UCS4) * (size_t)(n + 1));
    b.trace = malloc((size_t)(n + m + 1));
    if (!s.lo || !s.hi || !s.cost || !s.op || !s.scratch || !b.align || !b.hyp_sum ||
        !b.ref_sum || !b.hyp || !b.shifted || !b.best || !b.trace)
        goto release;
    memcpy(b.hyp, words_hyp, sizeof(Py_UCS4) * (size_t)n);
    beam(&s);
    for (Py_ssize_t j = 0; j <= m; j++) { s.cost[j] = j; s.op[j] = OP_INS; }
    fill_matrix(&s, b.hyp, 0);
    int64_t shifts = 0;
    long checked = 0;
    for (;;) {
        int64_t distance = s.cost[n * (m + 1) + m], delta = 0;
        Py_ssize_t same = 0;
        int found = best_shift(&s, &b, distance, &checked, &delta, &same);
        if (checked >= MAX_SHIFT_CANDIDATES || !found || delta <= 0) break;
        shifts++;
        Py_UCS4 *swap = b.hyp;
        b.hyp = b.best;
        b.best = swap;
        fill_matrix(&s, b.hyp, same);
    }
    result = shifts + s.cost[n * (m + 1) + m];
release:
    free(s.lo); free(s.hi); free(s.cost); free(s.op); free(s.scratch);
    free(b.align); free(b.hyp_sum); free(b.ref_sum); free(b.hyp); free(b.shifted);
    free(b.best); free(b.trace);
    return result;
}

static PyObject *py_edits(PyObject *self, PyObject *args) {
    PyObject *hyp_text, *ref_text;
    if (!PyArg_ParseTuple(args, "UU", &hyp_text, &ref_text)) return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(hyp_text), m = PyUnicode_GET_LENGTH(ref_text);
    if (m == 0) return PyLong_FromSsize_t(n);
    Py_UCS4 *hyp = PyUnicode_AsUCS4Copy(hyp_text);
    if (!hyp) return NULL;
    Py_UCS4 *ref = PyUnicode_AsUCS4Copy(ref_text);
    if (!ref) { PyMem_Free(hyp); return NULL; }
    int64_t result;
    Py_BEGIN_ALLOW_THREADS
    result = edits(hyp, n, ref, m);
    Py_END_ALLOW_THREADS
    PyMem_Free(hyp);
    PyMem_Free(ref);
    if (result < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(result);
}

static PyMethodDef methods[] = {
    {"edits", py_edits, METH_VARARGS,
     "edits(hyp, ref): TER's number of edits (shifts + beam edit distance) of hyp against "
     "ref, one code point a word, as sacreBLEU's lib_ter.translation_edit_rate counts them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tercom",
                                    "TER's shift search, compiled (scorer.metrics.tercom_search).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__tercom(void) { return PyModule_Create(&module); }
