/* METEOR 1.5's alignment search (Aligner.resolve) and the candidates it searches (exact, stem,
 * synonym and paraphrase matches), compiled: the same steps as scorer/meteor/aligner.py's
 * search and Aligner.candidates, which stay the reference and the fallback where this module
 * is not built (tests compare the two on generated and real candidates).
 *
 * A partial alignment's rank is the one integer the Python search builds (weighted matches
 * times 2**64, chunks times 2**32, distance), held in a signed 128-bit integer, so that every
 * comparison, tie and stable sort is the Python one. Words used are a bit set: the reference's
 * words in the low bits, the hypothesis' from bit len2.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#define BEAM_SIZE 40
#define CHUNK ((__int128)1 << 32)
#define MATCHED ((__int128)1 << 64)

typedef __int128 rank_t;

typedef struct {
    rank_t gain;
    Py_ssize_t start1, end1, end2, skew, start, length;
    PyObject *raw; /* borrowed: the candidate tuple as given */
    Py_ssize_t mask; /* offset of its bit set in the options' slab */
} Option;

typedef struct {
    rank_t rank;
    Py_ssize_t idx, last_end;
    Py_ssize_t slot; /* its bit set in the partials' slab */
    Py_ssize_t chain; /* newest chosen match in the chain arena, -1: none */
} Partial;

typedef struct {
    Py_ssize_t option, parent;
} Link;

typedef struct {
    Py_ssize_t words; /* 64-bit words per bit set */
    uint64_t *bits;
    Py_ssize_t slots, *free_slots, free_count;
    Link *links;
    Py_ssize_t link_count, link_capacity;
} Store;

static int store_grow_slots(Store *store) {
    Py_ssize_t more = store->slots ? store->slots : 64;
    uint64_t *bits = realloc(store->bits, sizeof(uint64_t) * store->words * (store->slots + more));
    Py_ssize_t *free_slots = realloc(store->free_slots, sizeof(Py_ssize_t) * (store->slots + more));
    if (bits == NULL || free_slots == NULL) {
        if (bits) store->bits = bits;
        if (free_slots) store->free_slots = free_slots;
        return -1;
    }
    store->bits = bits;
    store->free_slots = free_slots;
    for (Py_ssize_t k = store->slots + more - 1; k >= store->slots; k--)
        store->free_slots[store->free_count++] = k;
    store->slots += more;
    return 0;
}

static Py_ssize_t store_take(Store *store) {
    if (store->free_count == 0 && store_grow_slots(store) < 0) return -1;
    return store->free_slots[--store->free_count];
}

static void store_give(Store *store, Py_ssize_t slot) {
    store->free_slots[store->free_count++] = slot;
}

static uint64_t *slot_bits(Store *store, Py_ssize_t slot) {
    return store->bits + slot * store->words;
}

static Py_ssize_t store_link(Store *store, Py_ssize_t option, Py_ssize_t parent) {
    if (store->link_count == store->link_capacity) {
        Py_ssize_t capacity = store->link_capacity ? 2 * store->link_capacity : 256;
        Link *links = realloc(store->links, sizeof(Link) * capacity);
        if (links == NULL) return -1;
        store->links = links;
        store->link_capacity = capacity;
    }
    store->links[store->link_count].option = option;
    store->links[store->link_count].parent = parent;
    return store->link_count++;
}

static void set_range(uint64_t *bits, Py_ssize_t from, Py_ssize_t count) {
    for (Py_ssize_t k = from; k < from + count; k++) bits[k >> 6] |= (uint64_t)1 << (k & 63);
}

static int overlaps(const uint64_t *a, const uint64_t *b, Py_ssize_t words) {
    for (Py_ssize_t k = 0; k < words; k++)
        if (a[k] & b[k]) return 1;
    return 0;
}

/* Python's list.sort on the rank: stable (a merge sort through ``scratch``). */
static void sort_beam(Partial *beam, Py_ssize_t count, Partial *scratch) {
    for (Py_ssize_t width = 1; width < count; width *= 2) {
        for (Py_ssize_t left = 0; left < count; left += 2 * width) {
            Py_ssize_t middle = left + width < count ? left + width : count;
            Py_ssize_t right = left + 2 * width < count ? left + 2 * width : count;
            Py_ssize_t i = left, j = middle, k = left;
            while (i < middle && j < right)
                scratch[k++] = beam[j].rank < beam[i].rank ? beam[j++] : beam[i++];
            while (i < middle) scratch[k++] = beam[i++];
            while (j < right) scratch[k++] = beam[j++];
        }
        memcpy(beam, scratch, sizeof(Partial) * count);
    }
}

typedef struct {
    Partial *items;
    Py_ssize_t count, capacity;
} Beam;

static int beam_append(Beam *beam, Partial partial) {
    if (beam->count == beam->capacity) {
        Py_ssize_t capacity = beam->capacity ? 2 * beam->capacity : 4 * BEAM_SIZE;
        Partial *items = realloc(beam->items, sizeof(Partial) * capacity);
        if (items == NULL) return -1;
        beam->items = items;
        beam->capacity = capacity;
    }
    beam->items[beam->count++] = partial;
    return 0;
}

/* Cut the beam back to its best ``keep`` (sorted first), giving the others' bit sets back. */
static int beam_cut(Beam *beam, Py_ssize_t keep, Store *store, Partial **scratch,
                    Py_ssize_t *scratch_capacity) {
    if (*scratch_capacity < beam->count) {
        Partial *grown = realloc(*scratch, sizeof(Partial) * beam->capacity);
        if (grown == NULL) return -1;
        *scratch = grown;
        *scratch_capacity = beam->capacity;
    }
    sort_beam(beam->items, beam->count, *scratch);
    for (Py_ssize_t k = keep; k < beam->count; k++) store_give(store, beam->items[k].slot);
    if (beam->count > keep) beam->count = keep;
    return 0;
}

static int read_int(PyObject *tuple, Py_ssize_t at, Py_ssize_t *value) {
    *value = PyLong_AsSsize_t(PyTuple_GET_ITEM(tuple, at));
    return (*value == -1 && PyErr_Occurred()) ? -1 : 0;
}

typedef struct {
    Py_ssize_t start, length, match_start, match_length, module;
} Candidate;

/* One (start, length, match_start, match_length, module) tuple, checked against the sentences. */
static int read_candidate(PyObject *item, Py_ssize_t len1, Py_ssize_t len2, Candidate *found) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 5) {
        PyErr_SetString(PyExc_TypeError, "a candidate must be a tuple of 5 ints");
        return -1;
    }
    if (read_int(item, 0, &found->start) || read_int(item, 1, &found->length) ||
        read_int(item, 2, &found->match_start) || read_int(item, 3, &found->match_length) ||
        read_int(item, 4, &found->module))
        return -1;
    if (found->start < 0 || found->length < 0 || found->start + found->length > len2 ||
        found->match_start < 0 || found->match_length < 0 ||
        found->match_start + found->match_length > len1 || found->module < 0 ||
        found->module > 3) {
        PyErr_SetString(PyExc_ValueError, "a candidate lies outside its sentences");
        return -1;
    }
    return 0;
}

typedef struct {
    Py_ssize_t len1, len2, option_count;
    Option *options;
    Py_ssize_t *first; /* options of reference word i: first[i] .. first[i + 1] - 1 */
    uint64_t *masks;
    Py_ssize_t *fixed; /* per reference word, its fixed option or -1 */
} Problem;

static void problem_free(Problem *problem) {
    free(problem->options);
    free(problem->first);
    free(problem->masks);
    free(problem->fixed);
}

/* The candidates as ``Aligner.resolve`` reads them, and its fixed matches (a word's only
 * candidate, covering words no other candidate covers). */
static int read_problem(PyObject *raw, Py_ssize_t len1, Py_ssize_t len2, Py_ssize_t words,
                        Problem *problem, uint64_t *used) {
    if (!PyList_Check(raw) || PyList_GET_SIZE(raw) != len2) {
        PyErr_SetString(PyExc_TypeError, "raw must be a list with one list per reference word");
        return -1;
    }
    problem->len1 = len1;
    problem->len2 = len2;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < len2; i++) {
        PyObject *row = PyList_GET_ITEM(raw, i);
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "each reference word's candidates must be a list");
            return -1;
        }
        total += PyList_GET_SIZE(row);
    }
    problem->option_count = total;
    problem->options = malloc(sizeof(Option) * (total ? total : 1));
    problem->first = malloc(sizeof(Py_ssize_t) * (len2 + 1));
    problem->masks = calloc((size_t)(total ? total : 1) * words, sizeof(uint64_t));
    problem->fixed = malloc(sizeof(Py_ssize_t) * (len2 ? len2 : 1));
    Py_ssize_t *coverage1 = calloc(len1 ? len1 : 1, sizeof(Py_ssize_t));
    Py_ssize_t *coverage2 = calloc(len2 ? len2 : 1, sizeof(Py_ssize_t));
    int status = -1;
    if (!problem->options || !problem->first || !problem->masks || !problem->fixed ||
        !coverage1 || !coverage2) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < len2; i++) {
        PyObject *row = PyList_GET_ITEM(raw, i);
        problem->first[i] = n;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(row); k++, n++) {
            PyObject *item = PyList_GET_ITEM(row, k);
            Candidate c;
            if (read_candidate(item, len1, len2, &c) < 0) goto done;
            Py_ssize_t start = c.start, length = c.length, match_start = c.match_start,
                       match_length = c.match_length, module = c.module;
            Option *option = &problem->options[n];
            /* int(size * weight): weight 1.0 (exact) or 0.5 (the other modules). */
            Py_ssize_t weighted = module == 0 ? match_length + length
                                              : match_length / 2 + length / 2;
            option->gain = -(rank_t)weighted * MATCHED;
            option->start1 = match_start;
            option->end1 = match_start + match_length;
            option->end2 = start + length;
            option->skew = start > match_start ? start - match_start : match_start - start;
            option->start = start;
            option->length = length;
            option->raw = item;
            option->mask = n * words;
            set_range(problem->masks + option->mask, start, length);
            set_range(problem->masks + option->mask, len2 + match_start, match_length);
            for (Py_ssize_t j = match_start; j < match_start + match_length; j++) coverage1[j]++;
            for (Py_ssize_t j = start; j < start + length; j++) coverage2[j]++;
        }
    }
    problem->first[len2] = n;
    for (Py_ssize_t i = 0; i < len2; i++) {
        problem->fixed[i] = -1;
        if (problem->first[i + 1] - problem->first[i] != 1) continue;
        Option *option = &problem->options[problem->first[i]];
        int alone = 1;
        for (Py_ssize_t k = i; k < option->end2 && alone; k++) alone = coverage2[k] == 1;
        for (Py_ssize_t k = option->start1; k < option->end1 && alone; k++)
            alone = coverage1[k] == 1;
        if (alone) {
            problem->fixed[i] = problem->first[i];
            for (Py_ssize_t k = 0; k < words; k++) used[k] |= problem->masks[option->mask + k];
        }
    }
    status = 0;
done:
    free(coverage1);
    free(coverage2);
    return status;
}

static void take(Partial *partial, const Option *option) {
    int chunk = partial->last_end != -1 && option->start1 != partial->last_end;
    partial->rank += option->gain + option->skew + (chunk ? CHUNK : 0);
    partial->idx = option->end2;
    partial->last_end = option->end1;
}

/* ``_resolve``: the chain of chosen options of the best partial, -1 when none. */
static int search(Problem *problem, Store *store, const uint64_t *used, Py_ssize_t *best) {
    Beam beam = {0}, previous = {0};
    Partial *scratch = NULL;
    Py_ssize_t scratch_capacity = 0, words = store->words;
    int status = -1;
    Partial start = {0, 0, -1, store_take(store), -1};
    if (start.slot < 0) goto memory;
    memcpy(slot_bits(store, start.slot), used, sizeof(uint64_t) * words);
    if (beam_append(&beam, start) < 0) goto memory;
    for (Py_ssize_t i = 0; i < problem->len2; i++) {
        if (beam.count > 1 && beam_cut(&beam, beam.count, store, &scratch, &scratch_capacity) < 0)
            goto memory;
        for (Py_ssize_t k = BEAM_SIZE; k < beam.count; k++) store_give(store, beam.items[k].slot);
        if (beam.count > BEAM_SIZE) beam.count = BEAM_SIZE;
        Beam swap = previous;
        previous = beam;
        beam = swap;
        beam.count = 0;
        if (problem->fixed[i] >= 0) {
            const Option *here = &problem->options[problem->fixed[i]];
            for (Py_ssize_t p = 0; p < previous.count; p++) {
                Partial partial = previous.items[p];
                if (partial.idx <= i) take(&partial, here);
                if (beam_append(&beam, partial) < 0) goto memory;
            }
            continue;
        }
        int have_worst = 0;
        rank_t worst = 0;
        for (Py_ssize_t p = 0; p < previous.count; p++) {
            Partial partial = previous.items[p];
            const uint64_t *p_used = slot_bits(store, partial.slot);
            Py_ssize_t idx = partial.idx, last_end = partial.last_end;
            if (p_used[i >> 6] & ((uint64_t)1 << (i & 63))) {
                if (i >= idx) {
                    if (problem->fixed[idx] < 0) { /* the jar drops it (cannot happen) */
                        store_give(store, partial.slot);
                        continue;
                    }
                    take(&partial, &problem->options[problem->fixed[idx]]);
                }
                if (beam_append(&beam, partial) < 0) goto memory;
                continue;
            }
            for (Py_ssize_t o = problem->first[i]; o < problem->first[i + 1]; o++) {
                const Option *option = &problem->options[o];
                const uint64_t *mask = problem->masks + option->mask;
                if (overlaps(p_used, mask, words)) continue;
                rank_t current = partial.rank;
                partial.rank = current + option->skew; /* the jar adds the distance to the parent */
                int chunk = last_end != -1 && option->start1 != last_end;
                rank_t branch = current + option->gain + (chunk ? CHUNK : 0);
                if (have_worst && branch >= worst) continue;
                Partial child = {branch, option->end2, option->end1, store_take(store), -1};
                if (child.slot < 0) goto memory;
                p_used = slot_bits(store, partial.slot); /* the slab may have moved */
                uint64_t *bits = slot_bits(store, child.slot);
                for (Py_ssize_t k = 0; k < words; k++) bits[k] = p_used[k] | mask[k];
                child.chain = store_link(store, o, partial.chain);
                if (child.chain < 0 || beam_append(&beam, child) < 0) goto memory;
                if (beam.count >= 2 * BEAM_SIZE) {
                    if (beam_cut(&beam, BEAM_SIZE, store, &scratch, &scratch_capacity) < 0)
                        goto memory;
                    worst = beam.items[beam.count - 1].rank;
                    have_worst = 1;
                }
            }
            if (last_end != -1) {
                partial.rank += CHUNK;
                partial.last_end = -1;
            }
            partial.idx = idx + 1;
            if (beam_append(&beam, partial) < 0) goto memory;
        }
        if (beam.count == 0) { /* every partial was dropped: the jar keeps the first */
            Partial first = previous.items[0];
            Py_ssize_t slot = store_take(store);
            if (slot < 0) goto memory;
            memcpy(slot_bits(store, slot), slot_bits(store, first.slot), sizeof(uint64_t) * words);
            first.slot = slot;
            if (beam_append(&beam, first) < 0) goto memory;
        }
    }
    if (beam_cut(&beam, BEAM_SIZE, store, &scratch, &scratch_capacity) < 0) goto memory;
    for (Py_ssize_t p = 0; p < beam.count; p++)
        if (beam.items[p].last_end != -1) beam.items[p].rank += CHUNK;
    if (beam_cut(&beam, beam.count, store, &scratch, &scratch_capacity) < 0) goto memory;
    *best = beam.items[0].chain;
    status = 0;
    goto done;
memory:
    PyErr_NoMemory();
done:
    free(beam.items);
    free(previous.items);
    free(scratch);
    return status;
}

static PyObject *resolve(PyObject *module, PyObject *args) {
    PyObject *raw;
    Py_ssize_t len1, len2;
    if (!PyArg_ParseTuple(args, "Onn:resolve", &raw, &len1, &len2)) return NULL;
    if (len1 < 0 || len2 < 0) {
        PyErr_SetString(PyExc_ValueError, "sentence lengths must not be negative");
        return NULL;
    }
    Py_ssize_t words = (len1 + len2 + 63) / 64;
    if (words == 0) words = 1;
    Problem problem = {0};
    Store store = {words, NULL, 0, NULL, 0, NULL, 0, 0};
    PyObject *result = NULL;
    uint64_t *used = calloc(words, sizeof(uint64_t));
    Py_ssize_t best = -1;
    if (used == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_problem(raw, len1, len2, words, &problem, used) < 0) goto done;
    if (search(&problem, &store, used, &best) < 0) goto done;
    result = PyList_New(len2);
    if (result == NULL) goto done;
    for (Py_ssize_t i = 0; i < len2; i++) {
        PyObject *match = problem.fixed[i] >= 0 ? problem.options[problem.fixed[i]].raw : Py_None;
        Py_INCREF(match);
        PyList_SET_ITEM(result, i, match);
    }
    for (Py_ssize_t link = best; link >= 0; link = store.links[link].parent) {
        const Option *option = &problem.options[store.links[link].option];
        PyObject *old = PyList_GET_ITEM(result, option->start);
        Py_INCREF(option->raw);
        PyList_SET_ITEM(result, option->start, option->raw);
        Py_DECREF(old);
    }
done:
    free(used);
    problem_free(&problem);
    free(store.bits);
    free(store.free_slots);
    free(store.links);
    return result;
}


/* ---- candidates ---------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t k, length, order, at, size;
} Hit;

typedef struct {
    Hit *items;
    Py_ssize_t count, capacity;
} Hits;

static int hits_add(Hits *hits, Py_ssize_t k, Py_ssize_t length, Py_ssize_t order,
                    Py_ssize_t at, Py_ssize_t size) {
    if (hits->count == hits->capacity) {
        Py_ssize_t capacity = hits->capacity ? 2 * hits->capacity : 64;
        Hit *items = realloc(hits->items, sizeof(Hit) * capacity);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        hits->items = items;
        hits->capacity = capacity;
    }
    Hit hit = {k, length, order, at, size};
    hits->items[hits->count++] = hit;
    return 0;
}

static int compare_hits(const void *a, const void *b) {
    const Hit *x = a, *y = b;
    if (x->k != y->k) return (x->k > y->k) - (x->k < y->k);
    if (x->length != y->length) return (x->length > y->length) - (x->length < y->length);
    if (x->order != y->order) return (x->order > y->order) - (x->order < y->order);
    if (x->at != y->at) return (x->at > y->at) - (x->at < y->at);
    return (x->size > y->size) - (x->size < y->size);
}

/* candidates[start].append((start, length, match_start, match_length, module)) */
static int add_candidate(PyObject *candidates, Py_ssize_t start, Py_ssize_t length,
                         Py_ssize_t match_start, Py_ssize_t match_length, Py_ssize_t module) {
    if (start < 0 || start >= PyList_GET_SIZE(candidates)) {
        PyErr_SetString(PyExc_IndexError, "a candidate starts outside the reference");
        return -1;
    }
    Py_ssize_t values[5] = {start, length, match_start, match_length, module};
    PyObject *item = PyTuple_New(5);
    if (item == NULL) return -1;
    for (int k = 0; k < 5; k++) {
        PyObject *value = PyLong_FromSsize_t(values[k]);
        if (value == NULL) {
            Py_DECREF(item);
            return -1;
        }
        PyTuple_SET_ITEM(item, k, value);
    }
    int status = PyList_Append(PyList_GET_ITEM(candidates, start), item);
    Py_DECREF(item);
    return status;
}

/* A sentence packed once (``pack``), as 64-bit integers: its length n, where its synonym sets
 * and its paraphrases start and where they end, then per word its hash, its stem's hash and
 * its Python ``hash`` (what a paraphrase's words are looked for by), where each word's synsets
 * start (n + 1 offsets), the synsets (sorted per word), and per paraphrase that can be met (an
 * empty one only when alone in its path) a record: path start, path length, place in the
 * table, number of words, its place in the targets list, its words' Python hashes. Equal hashes
 * are only a sieve: a paraphrase is found where its words compare equal. */
#define PACK_HEADER 4
#define RECORD 5

typedef struct {
    Py_ssize_t n;
    const int64_t *keys, *stems, *hashes, *synset_starts, *synsets, *records;
    Py_ssize_t record_words, synset_count;
    PyObject *words, *targets; /* borrowed: a tuple of words, the paraphrases' tuples */
} Packed;

typedef struct {
    int64_t *items;
    Py_ssize_t count, capacity;
} Int64s;

static int int64s_add(Int64s *found, int64_t value) {
    if (found->count == found->capacity) {
        Py_ssize_t capacity = found->capacity ? 2 * found->capacity : 256;
        int64_t *items = realloc(found->items, sizeof(int64_t) * capacity);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        found->items = items;
        found->capacity = capacity;
    }
    found->items[found->count++] = value;
    return 0;
}

static int compare_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int add_int(Int64s *found, PyObject *value) {
    long long number = PyLong_AsLongLong(value);
    if (number == -1 && PyErr_Occurred()) return -1;
    return int64s_add(found, number);
}

static int add_hash(Int64s *found, PyObject *value) {
    Py_hash_t hash = PyObject_Hash(value);
    if (hash == -1 && PyErr_Occurred()) return -1;
    return int64s_add(found, hash);
}

/* The records of one path's paraphrases (``targets``: first word -> [(order, words)]). */
static int pack_path(Int64s *packed, PyObject *targets_list, PyObject *path) {
    if (!PyTuple_Check(path) || PyTuple_GET_SIZE(path) != 3 ||
        !PyDict_Check(PyTuple_GET_ITEM(path, 2))) {
        PyErr_SetString(PyExc_TypeError, "a path must be (start, length, targets)");
        return -1;
    }
    PyObject *targets = PyTuple_GET_ITEM(path, 2), *first, *entries;
    int alone = PyDict_GET_SIZE(targets) == 1;
    Py_ssize_t cursor = 0;
    while (PyDict_Next(targets, &cursor, &first, &entries)) {
        if (first == Py_None && !alone) continue; /* an empty paraphrase beside others: never met */
        if (!PyList_Check(entries)) {
            PyErr_SetString(PyExc_TypeError, "paraphrases must be lists");
            return -1;
        }
        for (Py_ssize_t e = 0; e < PyList_GET_SIZE(entries); e++) {
            PyObject *entry = PyList_GET_ITEM(entries, e);
            if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2 ||
                !PyTuple_Check(PyTuple_GET_ITEM(entry, 1))) {
                PyErr_SetString(PyExc_TypeError, "a paraphrase must be (order, tuple of words)");
                return -1;
            }
            PyObject *target = PyTuple_GET_ITEM(entry, 1);
            Py_ssize_t size = PyTuple_GET_SIZE(target);
            if (add_int(packed, PyTuple_GET_ITEM(path, 0)) < 0 ||
                add_int(packed, PyTuple_GET_ITEM(path, 1)) < 0 ||
                add_int(packed, PyTuple_GET_ITEM(entry, 0)) < 0 || int64s_add(packed, size) < 0 ||
                int64s_add(packed, PyList_GET_SIZE(targets_list)) < 0 ||
                PyList_Append(targets_list, target) < 0)
                return -1;
            for (Py_ssize_t w = 0; w < size; w++)
                if (add_hash(packed, PyTuple_GET_ITEM(target, w)) < 0) return -1;
        }
    }
    return 0;
}

static PyObject *pack(PyObject *module, PyObject *args) {
    PyObject *words, *keys, *stems, *synonyms, *paths;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!:pack", &PyTuple_Type, &words, &PyList_Type, &keys,
                          &PyList_Type, &stems, &PyList_Type, &synonyms, &PyList_Type, &paths))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(words);
    if (PyList_GET_SIZE(keys) != n || PyList_GET_SIZE(stems) != n ||
        PyList_GET_SIZE(synonyms) != n) {
        PyErr_SetString(PyExc_ValueError, "one key, stem key and synonym set per word");
        return NULL;
    }
    Int64s packed = {0};
    PyObject *targets_list = PyList_New(0), *result = NULL;
    if (targets_list == NULL) return NULL;
    for (int k = 0; k < PACK_HEADER; k++)
        if (int64s_add(&packed, 0) < 0) goto done;
    packed.items[0] = n;
    for (Py_ssize_t i = 0; i < n; i++)
        if (add_int(&packed, PyList_GET_ITEM(keys, i)) < 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        if (add_int(&packed, PyList_GET_ITEM(stems, i)) < 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        if (add_hash(&packed, PyTuple_GET_ITEM(words, i)) < 0) goto done;
    Py_ssize_t starts = packed.count;
    for (Py_ssize_t i = 0; i <= n; i++)
        if (int64s_add(&packed, 0) < 0) goto done;
    packed.items[1] = packed.count;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *sets = PyList_GET_ITEM(synonyms, i);
        if (!PyAnySet_Check(sets)) {
            PyErr_SetString(PyExc_TypeError, "synonym sets must be sets");
            goto done;
        }
        Py_ssize_t from = packed.count;
        PyObject *iterator = PyObject_GetIter(sets), *synset;
        if (iterator == NULL) goto done;
        while ((synset = PyIter_Next(iterator)) != NULL) {
            int status = add_int(&packed, synset);
            Py_DECREF(synset);
            if (status < 0) break;
        }
        Py_DECREF(iterator);
        if (PyErr_Occurred()) goto done;
        qsort(packed.items + from, packed.count - from, sizeof(int64_t), compare_int64);
        packed.items[starts + i + 1] = packed.count - packed.items[1];
    }
    packed.items[2] = packed.count;
    for (Py_ssize_t p = 0; p < PyList_GET_SIZE(paths); p++)
        if (pack_path(&packed, targets_list, PyList_GET_ITEM(paths, p)) < 0) goto done;
    packed.items[3] = packed.count;
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)packed.items,
                                                sizeof(int64_t) * packed.count);
    if (bytes == NULL) goto done;
    result = PyTuple_Pack(2, bytes, targets_list);
    Py_DECREF(bytes);
done:
    free(packed.items);
    Py_DECREF(targets_list);
    return result;
}

/* A packed sentence (``pack``'s (bytes, targets)) with its words, checked. */
static int read_packed(PyObject *words, PyObject *packed, Packed *found) {
    if (!PyTuple_Check(words) || !PyTuple_Check(packed) || PyTuple_GET_SIZE(packed) != 2 ||
        !PyBytes_Check(PyTuple_GET_ITEM(packed, 0)) || !PyList_Check(PyTuple_GET_ITEM(packed, 1))) {
        PyErr_SetString(PyExc_TypeError, "a sentence is its words (tuple) and pack()'s result");
        return -1;
    }
    PyObject *bytes = PyTuple_GET_ITEM(packed, 0);
    Py_ssize_t size = PyBytes_GET_SIZE(bytes) / (Py_ssize_t)sizeof(int64_t);
    const int64_t *items = (const int64_t *)PyBytes_AS_STRING(bytes);
    Py_ssize_t n = PyTuple_GET_SIZE(words);
    if (PyBytes_GET_SIZE(bytes) % sizeof(int64_t) || size < PACK_HEADER || items[0] != n ||
        items[1] != PACK_HEADER + 4 * n + 1 || items[2] < items[1] || items[3] != size ||
        items[2] > items[3]) {
        PyErr_SetString(PyExc_ValueError, "a packed sentence that is not this sentence's");
        return -1;
    }
    found->n = n;
    found->keys = items + PACK_HEADER;
    found->stems = found->keys + n;
    found->hashes = found->stems + n;
    found->synset_starts = found->hashes + n;
    found->synsets = items + items[1];
    found->synset_count = items[2] - items[1];
    found->records = items + items[2];
    found->record_words = items[3] - items[2];
    found->words = words;
    found->targets = PyTuple_GET_ITEM(packed, 1);
    if (found->synset_starts[0] != 0 || found->synset_starts[n] != found->synset_count) {
        PyErr_SetString(PyExc_ValueError, "a packed sentence that is not this sentence's");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (found->synset_starts[i + 1] < found->synset_starts[i]) {
            PyErr_SetString(PyExc_ValueError, "a packed sentence that is not this sentence's");
            return -1;
        }
    return 0;
}

/* Do two sorted runs of synsets share one? */
static int share(const int64_t *a, Py_ssize_t a_count, const int64_t *b, Py_ssize_t b_count) {
    Py_ssize_t x = 0, y = 0;
    while (x < a_count && y < b_count) {
        if (a[x] == b[y]) return 1;
        if (a[x] < b[y])
            x++;
        else
            y++;
    }
    return 0;
}

/* ``_path_hits`` on packed sentences: every paraphrase of ``source``'s paths found in
 * ``other``, sorted as there. */
static int packed_hits(Hits *hits, const Packed *source, const Packed *other) {
    hits->count = 0;
    const int64_t *records = source->records;
    Py_ssize_t r = 0;
    while (r < source->record_words) {
        if (r + RECORD > source->record_words ||
            records[r + 3] < 0 || r + RECORD + records[r + 3] > source->record_words ||
            records[r + 4] < 0 || records[r + 4] >= PyList_GET_SIZE(source->targets)) {
            PyErr_SetString(PyExc_ValueError, "a packed paraphrase outside its sentence");
            return -1;
        }
        Py_ssize_t k = records[r], length = records[r + 1], order = records[r + 2];
        Py_ssize_t size = records[r + 3], place = records[r + 4];
        const int64_t *hashes = records + r + RECORD;
        r += RECORD + size;
        if (size == 0) {
            for (Py_ssize_t at = 0; at < other->n; at++)
                if (hits_add(hits, k, length, order, at, 0) < 0) return -1;
            continue;
        }
        for (Py_ssize_t at = 0; at + size <= other->n; at++) {
            if (other->hashes[at] != hashes[0]) continue;
            Py_ssize_t w = 1;
            while (w < size && other->hashes[at + w] == hashes[w]) w++;
            if (w < size) continue;
            PyObject *target = PyList_GET_ITEM(source->targets, place);
            if (!PyTuple_Check(target) || PyTuple_GET_SIZE(target) != size) {
                PyErr_SetString(PyExc_ValueError, "a packed paraphrase that is not its words");
                return -1;
            }
            int same = 1;
            for (w = 0; w < size && same == 1; w++)
                same = PyObject_RichCompareBool(PyTuple_GET_ITEM(other->words, at + w),
                                                PyTuple_GET_ITEM(target, w), Py_EQ);
            if (same < 0) return -1;
            if (same && hits_add(hits, k, length, order, at, size) < 0) return -1;
        }
    }
    if (hits->count > 1) qsort(hits->items, hits->count, sizeof(Hit), compare_hits);
    return 0;
}

/* ``Aligner.candidates``: per reference word, the exact, stem, synonym and paraphrase
 * candidates that start there, in the jar's order (only exact ones when both sides have the
 * same hashes). */
static PyObject *candidates(PyObject *module, PyObject *args) {
    PyObject *words1, *packed1, *words2, *packed2;
    if (!PyArg_ParseTuple(args, "OOOO:candidates", &words1, &packed1, &words2, &packed2))
        return NULL;
    Packed one, two;
    Hits hits = {0};
    if (read_packed(words1, packed1, &one) < 0 || read_packed(words2, packed2, &two) < 0)
        return NULL;
    PyObject *found = PyList_New(two.n);
    if (found == NULL) return NULL;
    for (Py_ssize_t i = 0; i < two.n; i++) {
        PyObject *row = PyList_New(0);
        if (row == NULL) goto fail;
        PyList_SET_ITEM(found, i, row);
    }
    for (Py_ssize_t i = 0; i < two.n; i++)
        for (Py_ssize_t j = 0; j < one.n; j++)
            if (one.keys[j] == two.keys[i] && add_candidate(found, i, 1, j, 1, 0) < 0) goto fail;
    if (one.n == two.n && (one.n == 0 || !memcmp(one.keys, two.keys, sizeof(int64_t) * one.n)))
        return found;
    for (Py_ssize_t i = 0; i < two.n; i++)
        for (Py_ssize_t j = 0; j < one.n; j++)
            if (one.stems[j] == two.stems[i] && one.keys[j] != two.keys[i] &&
                add_candidate(found, i, 1, j, 1, 1) < 0)
                goto fail;
    for (Py_ssize_t i = 0; i < two.n; i++) {
        const int64_t *sets2 = two.synsets + two.synset_starts[i];
        Py_ssize_t count2 = two.synset_starts[i + 1] - two.synset_starts[i];
        if (count2 == 0) continue;
        for (Py_ssize_t j = 0; j < one.n; j++) {
            if (one.keys[j] == two.keys[i]) continue;
            const int64_t *sets1 = one.synsets + one.synset_starts[j];
            Py_ssize_t count1 = one.synset_starts[j + 1] - one.synset_starts[j];
            if (share(sets1, count1, sets2, count2) && add_candidate(found, i, 1, j, 1, 2) < 0)
                goto fail;
        }
    }
    if (packed_hits(&hits, &two, &one) < 0) goto fail_hits;
    for (Py_ssize_t h = 0; h < hits.count; h++) {
        Hit *hit = &hits.items[h];
        if (add_candidate(found, hit->k, hit->length, hit->at, hit->size, 3) < 0) goto fail_hits;
    }
    if (packed_hits(&hits, &one, &two) < 0) goto fail_hits;
    for (Py_ssize_t h = 0; h < hits.count; h++) {
        Hit *hit = &hits.items[h];
        if (add_candidate(found, hit->at, hit->size, hit->k, hit->length, 3) < 0) goto fail_hits;
    }
    free(hits.items);
    return found;
fail_hits:
    free(hits.items);
fail:
    Py_DECREF(found);
    return NULL;
}

/* ---- the score bound ------------------------------------------------------------------ */

static int read_flags(PyObject *list, char **flags, Py_ssize_t *count) {
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "function-word flags must be a list");
        return -1;
    }
    *count = PyList_GET_SIZE(list);
    *flags = malloc(*count ? *count : 1);
    if (*flags == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < *count; k++) {
        int truth = PyObject_IsTrue(PyList_GET_ITEM(list, k));
        if (truth < 0) return -1;
        (*flags)[k] = (char)truth;
    }
    return 0;
}

/* The side's words matched at their best weight, as ``upper_bound`` sums them. */
static double side_matches(const double *best, const char *function, Py_ssize_t count,
                           double delta, Py_ssize_t *coverable) {
    double total = 0.0;
    *coverable = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        total += best[k] * (function[k] ? (1.0 - delta) : delta);
        if (best[k] != 0.0) (*coverable)++;
    }
    return total;
}

/* scoring.upper_bound: METEOR's F-mean with every coverable word matched at its best module
 * weight, less the penalty of one chunk over them (none when every word is coverable). */
static PyObject *upper_bound(PyObject *module, PyObject *args) {
    PyObject *raw, *function1_list, *function2_list;
    double weights[4], alpha, beta, gamma, delta;
    if (!PyArg_ParseTuple(args, "O!OO(dddd)(dddd):upper_bound", &PyList_Type, &raw,
                          &function1_list, &function2_list, &weights[0], &weights[1],
                          &weights[2], &weights[3], &alpha, &beta, &gamma, &delta))
        return NULL;
    char *function1 = NULL, *function2 = NULL;
    double *best1 = NULL, *best2 = NULL;
    Py_ssize_t len1 = 0, len2 = 0;
    PyObject *result = NULL;
    if (read_flags(function1_list, &function1, &len1) < 0 ||
        read_flags(function2_list, &function2, &len2) < 0)
        goto done;
    best1 = calloc(len1 ? len1 : 1, sizeof(double));
    best2 = calloc(len2 ? len2 : 1, sizeof(double));
    if (best1 == NULL || best2 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(raw); i++) {
        PyObject *row = PyList_GET_ITEM(raw, i);
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "each reference word's candidates must be a list");
            goto done;
        }
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(row); k++) {
            Candidate c;
            if (read_candidate(PyList_GET_ITEM(row, k), len1, len2, &c) < 0) goto done;
            double weight = weights[c.module];
            for (Py_ssize_t j = c.match_start; j < c.match_start + c.match_length; j++)
                if (weight > best1[j]) best1[j] = weight;
            for (Py_ssize_t j = c.start; j < c.start + c.length; j++)
                if (weight > best2[j]) best2[j] = weight;
        }
    }
    Py_ssize_t functions1 = 0, functions2 = 0, coverable1, coverable2;
    for (Py_ssize_t k = 0; k < len1; k++) functions1 += function1[k];
    for (Py_ssize_t k = 0; k < len2; k++) functions2 += function2[k];
    double test_weighted = delta * (double)(len1 - functions1) + (1.0 - delta) * functions1;
    double ref_weighted = delta * (double)(len2 - functions2) + (1.0 - delta) * functions2;
    double test_matches = side_matches(best1, function1, len1, delta, &coverable1);
    double ref_matches = side_matches(best2, function2, len2, delta, &coverable2);
    double value = 0.0;
    if (test_weighted != 0.0 && ref_weighted != 0.0 && test_matches != 0.0 &&
        ref_matches != 0.0) {
        double precision = test_matches / test_weighted, recall = ref_matches / ref_weighted;
        value = precision * recall / (alpha * precision + (1.0 - alpha) * recall);
        if (!(coverable1 == len1 && coverable2 == len2)) {
            double fewest = 1.0 / ((double)(coverable1 + coverable2) / 2.0);
            value = value * (1.0 - gamma * pow(fewest, beta));
        }
    }
    result = PyFloat_FromDouble(value);
done:
    free(function1);
    free(function2);
    free(best1);
    free(best2);
    return result;
}

static PyMethodDef methods[] = {
    {"resolve", resolve, METH_VARARGS,
     "resolve(raw, len1, len2): per reference word, the candidate tuple the search chose to "
     "start there (fixed matches included), or None."},
    {"pack", pack, METH_VARARGS,
     "pack(words, keys, stem_keys, synonyms, paths): the sentence as candidates() reads it, "
     "(bytes, the paraphrases' tuples)."},
    {"candidates", candidates, METH_VARARGS,
     "candidates(words1, packed1, words2, packed2): per reference word, the exact, stem, "
     "synonym and paraphrase candidates that start there, in the jar's order."},
    {"upper_bound", upper_bound, METH_VARARGS,
     "upper_bound(raw, function1, function2, module_weights, (alpha, beta, gamma, delta)): "
     "the best score any alignment of these candidates could have."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "scorer.meteor._search",
    "METEOR 1.5's alignment search and candidates, compiled (scorer.meteor.aligner is the reference).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&definition); }
