/* TER's shift search as sacreBLEU's tercom port (sacrebleu.metrics.lib_ter, 2.6) runs it,
 * compiled: the hot loop of WebNLG's TER (about 3/4 of a warm WebNLG 2017 job in Python).
 * Below it, pyter's search (WebNLG+ 2020's TER), compiled for the same reason.
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

typedef int64_t (*EditsSearch)(const Py_UCS4 *, Py_ssize_t, const Py_UCS4 *, Py_ssize_t);

/* A search on the two texts' code points, without the GIL; a negative result is no memory. */
static PyObject *run_search(EditsSearch search, PyObject *hyp_text, PyObject *ref_text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(hyp_text), m = PyUnicode_GET_LENGTH(ref_text);
    Py_UCS4 *hyp = PyUnicode_AsUCS4Copy(hyp_text);
    if (!hyp) return NULL;
    Py_UCS4 *ref = PyUnicode_AsUCS4Copy(ref_text);
    if (!ref) { PyMem_Free(hyp); return NULL; }
    int64_t result;
    Py_BEGIN_ALLOW_THREADS
    result = search(hyp, n, ref, m);
    Py_END_ALLOW_THREADS
    PyMem_Free(hyp);
    PyMem_Free(ref);
    if (result < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(result);
}

static PyObject *py_edits(PyObject *self, PyObject *args) {
    PyObject *hyp_text, *ref_text;
    if (!PyArg_ParseTuple(args, "UU", &hyp_text, &ref_text)) return NULL;
    if (PyUnicode_GET_LENGTH(ref_text) == 0) return PyLong_FromSsize_t(PyUnicode_GET_LENGTH(hyp_text));
    return run_search(edits, hyp_text, ref_text);
}

/* ---- pyter's TER (WebNLG+ 2020's eval.py: pyter3), scorer.metrics.ter_pyter's search ----
 *
 * pyter's greedy search: while some candidate shift lowers the (plain, unbeamed) word edit
 * distance, apply the best one; the best is the largest drop, ties to the shifted output that
 * sorts last. Its candidates: for each h[i] = r[j] (i != j), the longest common run from
 * there, moved to position j of h with the run taken out. Every candidate is looked at and
 * the maximum of (drop, shifted words) taken, so the order of looking changes nothing.
 * Distances are Hyyro's bit-parallel Levenshtein (the reference the pattern, in blocks of 64
 * words), as rapidfuzz computes them: the exact distance, whatever the lengths.
 * ter_pyter._best_shift is the same search in Python (rapidfuzz's distances). */

typedef struct {
    Py_ssize_t m;         /* reference length */
    Py_ssize_t blocks;    /* 64-row blocks of it */
    uint64_t *peq;        /* per symbol (0..symbols), per block, the reference rows holding it */
    uint64_t *pv, *mv;    /* per column (0..n), per block, the vertical +1 and -1 deltas */
    int64_t *score;       /* per column, the distance of the output's prefix so far */
    uint64_t *scratch;    /* 4 x blocks: two columns (pv, mv) of a candidate */
} Distance;

/* One column of Hyyro's bit-parallel Levenshtein (the reference the rows, in blocks of 64;
 * each block hands the horizontal delta of its last row to the next): the column of ``word``
 * from the one before; returns the distance so far, from the one before. */
static inline int64_t pyter_column(const Distance *d, uint32_t word, const uint64_t *pv,
                             const uint64_t *mv, uint64_t *pv_out, uint64_t *mv_out,
                             int64_t score) {
    Py_ssize_t blocks = d->blocks;
    const uint64_t *peq = d->peq + (size_t)word * (size_t)blocks;
    uint64_t last = (uint64_t)1 << ((d->m - 1) % 64);
    int carry = 1; /* the first row's horizontal delta: D[0][i + 1] - D[0][i] = 1 */
    for (Py_ssize_t b = 0; b < blocks; b++) {
        uint64_t eq = peq[b], p = pv[b], q = mv[b];
        uint64_t xv = eq | q;
        if (carry < 0) eq |= 1;
        uint64_t xh = (((eq & p) + p) ^ p) | eq;
        uint64_t ph = q | ~(xh | p);
        uint64_t mh = p & xh;
        int out = 0;
        if (b == blocks - 1) {
            if (ph & last) score++;
            else if (mh & last) score--;
        } else {
            out = (ph >> 63) ? 1 : (mh >> 63) ? -1 : 0;
        }
        ph <<= 1;
        mh <<= 1;
        if (carry < 0) mh |= 1;
        else if (carry > 0) ph |= 1;
        pv_out[b] = mh | ~(xv | ph);
        mv_out[b] = ph & xv;
        carry = out;
    }
    return score;
}

/* The Levenshtein distance of the output (n words) to the reference, its columns kept: exact,
 * the distance the plain dynamic programme gives. */
static int64_t pyter_output_distance(Distance *d, const uint32_t *text, Py_ssize_t n) {
    size_t blocks = (size_t)d->blocks;
    for (Py_ssize_t i = 0; i < n; i++)
        d->score[i + 1] = pyter_column(d, text[i], d->pv + i * blocks, d->mv + i * blocks,
                                 d->pv + (i + 1) * blocks, d->mv + (i + 1) * blocks,
                                 d->score[i]);
    return d->score[n];
}

/* The distance of a candidate whose first ``same`` words are the output's: its columns from
 * the output's column ``same`` on. */
static int64_t pyter_candidate_distance(Distance *d, const uint32_t *text, Py_ssize_t n,
                                  Py_ssize_t same) {
    size_t blocks = (size_t)d->blocks;
    if (same >= n) return d->score[n];
    const uint64_t *pv = d->pv + same * blocks, *mv = d->mv + same * blocks;
    int64_t score = d->score[same];
    for (Py_ssize_t i = same; i < n; i++) {
        uint64_t *pv_out = d->scratch + (i & 1) * 2 * blocks, *mv_out = pv_out + blocks;
        score = pyter_column(d, text[i], pv, mv, pv_out, mv_out, score);
        pv = pv_out;
        mv = mv_out;
    }
    return score;
}

static int compare_symbols(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Each code point of hyp and ref as its rank among the distinct ones (order kept, so the
 * shifted outputs compare as before); returns the number of distinct ones, -1 out of memory. */
static Py_ssize_t dense(const Py_UCS4 *hyp, Py_ssize_t n, const Py_UCS4 *ref, Py_ssize_t m,
                        uint32_t *hyp_out, uint32_t *ref_out) {
    uint32_t *sorted = malloc(sizeof(uint32_t) * (size_t)(n + m + 1));
    if (!sorted) return -1;
    for (Py_ssize_t k = 0; k < n; k++) sorted[k] = hyp[k];
    for (Py_ssize_t k = 0; k < m; k++) sorted[n + k] = ref[k];
    qsort(sorted, (size_t)(n + m), sizeof(uint32_t), compare_symbols);
    Py_ssize_t count = 0;
    for (Py_ssize_t k = 0; k < n + m; k++)
        if (count == 0 || sorted[count - 1] != sorted[k]) sorted[count++] = sorted[k];
#define RANK(word, out)                                                      \
    do {                                                                     \
        Py_ssize_t lo = 0, hi = count;                                       \
        while (lo < hi) {                                                    \
            Py_ssize_t mid = (lo + hi) / 2;                                  \
            if (sorted[mid] < (word)) lo = mid + 1; else hi = mid;           \
        }                                                                    \
        (out) = (uint32_t)lo;                                                \
    } while (0)
    for (Py_ssize_t k = 0; k < n; k++) RANK(hyp[k], hyp_out[k]);
    for (Py_ssize_t k = 0; k < m; k++) RANK(ref[k], ref_out[k]);
#undef RANK
    free(sorted);
    return count;
}

/* pyter's shifts + edit distance of hyp against ref (m > 0); -1 out of memory. */
static int64_t pyter_edits(const Py_UCS4 *hyp_text, Py_ssize_t n, const Py_UCS4 *ref_text,
                           Py_ssize_t m) {
    int64_t result = -1;
    uint32_t *hyp = malloc(sizeof(uint32_t) * (size_t)(n + 1));
    uint32_t *shifted = malloc(sizeof(uint32_t) * (size_t)(n + 1));
    uint32_t *best = malloc(sizeof(uint32_t) * (size_t)(n + 1));
    uint32_t *ref = malloc(sizeof(uint32_t) * (size_t)(m + 1));
    Py_ssize_t *first = NULL, *next = malloc(sizeof(Py_ssize_t) * (size_t)(m + 1));
    Py_ssize_t blocks = (m + 63) / 64;
    size_t columns = (size_t)(n + 1) * (size_t)blocks;
    /* The current output's columns, kept while its candidates are looked at: each candidate's
     * distance resumes after the words it shares with the output (scratch: two columns). */
    Distance current = {m, blocks, NULL, malloc(sizeof(uint64_t) * columns),
                        malloc(sizeof(uint64_t) * columns),
                        malloc(sizeof(int64_t) * (size_t)(n + 1)),
                        malloc(sizeof(uint64_t) * 4 * (size_t)blocks)};
    if (!hyp || !shifted || !best || !ref || !next || !current.pv || !current.mv ||
        !current.score || !current.scratch)
        goto release;
    Py_ssize_t symbols = dense(hyp_text, n, ref_text, m, hyp, ref);
    if (symbols < 0) goto release;
    current.peq = calloc(((size_t)symbols + 1) * (size_t)blocks, sizeof(uint64_t));
    first = malloc(sizeof(Py_ssize_t) * ((size_t)symbols + 1));
    if (!current.peq || !first) goto release;
    for (Py_ssize_t b = 0; b < blocks; b++) { current.pv[b] = ~(uint64_t)0; current.mv[b] = 0; }
    current.score[0] = m;
    for (Py_ssize_t s = 0; s <= symbols; s++) first[s] = -1;
    for (Py_ssize_t j = m - 1; j >= 0; j--) { /* each symbol's reference positions, in order */
        next[j] = first[ref[j]];
        first[ref[j]] = j;
        current.peq[(size_t)ref[j] * (size_t)blocks + (size_t)(j / 64)] |= (uint64_t)1 << (j % 64);
    }
    int64_t distance = pyter_output_distance(&current, hyp, n), shifts = 0;
    for (;;) {
        int found = 0;
        int64_t best_drop = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            for (Py_ssize_t j = first[hyp[i]]; j >= 0; j = next[j]) {
                if (i == j) continue;
                Py_ssize_t length = 1;
                while (i + length < n && j + length < m && hyp[i + length] == ref[j + length])
                    length++;
                /* rest = hyp without [i, i + length); shifted = rest[:j] + run + rest[j:] */
                Py_ssize_t rest = n - length, at = j < rest ? j : rest, k = 0;
                for (Py_ssize_t x = 0; x < at; x++) shifted[k++] = x < i ? hyp[x] : hyp[x + length];
                for (Py_ssize_t x = i; x < i + length; x++) shifted[k++] = hyp[x];
                for (Py_ssize_t x = at; x < rest; x++) shifted[k++] = x < i ? hyp[x] : hyp[x + length];
                Py_ssize_t same = i < at ? i : at;
                while (same < n && shifted[same] == hyp[same]) same++;
                int64_t drop = distance - pyter_candidate_distance(&current, shifted, n, same);
                int better = !found || drop > best_drop;
                if (!better && drop == best_drop) {
                    Py_ssize_t x = 0;
                    while (x < n && shifted[x] == best[x]) x++;
                    better = x < n && shifted[x] > best[x];
                }
                if (better) {
                    found = 1;
                    best_drop = drop;
                    memcpy(best, shifted, sizeof(uint32_t) * (size_t)n);
                }
            }
        }
        if (!found || best_drop <= 0) break;
        shifts++;
        distance -= best_drop;
        uint32_t *swap = hyp;
        hyp = best;
        best = swap;
        pyter_output_distance(&current, hyp, n);
    }
    result = shifts + distance;
release:
    free(hyp); free(shifted); free(best); free(ref); free(next); free(first);
    free(current.peq); free(current.pv); free(current.mv); free(current.score);
    free(current.scratch);
    return result;
}

static PyObject *py_pyter_edits(PyObject *self, PyObject *args) {
    PyObject *hyp_text, *ref_text;
    if (!PyArg_ParseTuple(args, "UU", &hyp_text, &ref_text)) return NULL;
    if (PyUnicode_GET_LENGTH(ref_text) == 0) {
        PyErr_SetString(PyExc_ZeroDivisionError, "pyter's TER of an empty reference");
        return NULL;
    }
    return run_search(pyter_edits, hyp_text, ref_text);
}

static PyMethodDef methods[] = {
    {"edits", py_edits, METH_VARARGS,
     "edits(hyp, ref): TER's number of edits (shifts + beam edit distance) of hyp against "
     "ref, one code point a word, as sacreBLEU's lib_ter.translation_edit_rate counts them."},
    {"pyter_edits", py_pyter_edits, METH_VARARGS,
     "pyter_edits(hyp, ref): pyter's shifts + edit distance of hyp against a non-empty ref, "
     "one code point a word (scorer.metrics.ter_pyter.ter's numerator)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tercom",
                                    "TER's shift searches, compiled (scorer.metrics.tercom_search, scorer.metrics.ter_pyter).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__tercom(void) { return PyModule_Create(&module); }
