/* The uniform assignor's homogeneous builder in C: the same rule as `_Builder` in homogeneous.py (its
 * reference and fallback), for the input it can take without Python's help.
 *
 * Kafka's UniformHomogeneousAssignmentBuilder: quota = total // members, `total % members` members one more;
 * each member keeps what it owns up to its quota and the rest is dealt to the members below it. In Python the
 * per-partition and per-member work (reading every owned partition, checking it is in range and owned once,
 * copying kept assignments) costs far more than Kafka's whole assignment; here it is one pass over plain arrays.
 *
 * Two entries: `alike()` takes a whole group whose members share one subscription object (the usual group)
 * from its member specs, `homogeneous()` one part of a group from lists the Python code made. Each returns
 * None, having changed nothing, whenever the input is not the plain case (a current assignment that is not a
 * dict of non-empty frozensets of ints, naming an unsubscribed topic, a partition out of range or owned twice,
 * a member id outside the Basic Multilingual Plane): the reference then runs and decides, so both paths give
 * the same result for every input, down to the order of members and entries.
 *
 * Then three steps of the heterogeneous builder (`_Heterogeneous` in uniform.py, which stays their reference):
 * `keep()`, `deal()` and `balance()`, under "the heterogeneous builder's hot loops" below.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#if PY_VERSION_HEX < 0x030D0000
#define HAVE_KNOWN_HASH 1
#else
#define HAVE_KNOWN_HASH 0
#endif

/* Plain C sizes keep the arrays small; a group beyond them goes to the reference. */
#define MAX_PARTITIONS 50000000

typedef struct {
    PyObject *key; /* borrowed: an element of topic_ids */
    Py_ssize_t index;
} slot_t;

typedef struct {
    Py_ssize_t n, ntopics, total;
    PyObject *member_ids;  /* a list of str */
    PyObject **assigned;   /* per member: its current assignment */
    PyObject **topic_ids;  /* the subscribed topics in Uuid order */
    Py_ssize_t *counts, *offset, *owned, *held;
    int32_t *owner; /* per partition (topic offset + partition): member + 1, or 0 when free */
    slot_t *table; /* topic id object -> topic index, by identity */
    size_t mask;
    PyObject *by_value; /* dict topic id -> index for ids that are equal but not identical, built on need */
    Py_hash_t *hashes; /* per topic, -1 until computed */
    PyObject **result; /* new references, NULL until made */
    char *plus;
    int fresh; /* nobody owns anything */
    Py_ssize_t *listing; /* the order of members in the result when not the given one */
    PyObject **owned_refs; /* assigned and topic_ids: references held for the call */
    int untrack;           /* results are left to reference counting alone (see run) */
    int foreign; /* some key of a current assignment is a topic id equal to, not the same object as, ours */
} builder_t;

static PyTypeObject *uuid_type; /* uuid.UUID */
static PyObject *int_name;      /* "int", interned: a Uuid's 128-bit value */

static size_t
pointer_hash(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 33;
    v *= (uintptr_t)0xff51afd7ed558ccdULL;
    v ^= v >> 29;
    return (size_t)v;
}

/* The topic's index, -1 when it is not subscribed, -2 on a Python error. */
static Py_ssize_t
topic_of(builder_t *b, PyObject *key)
{
    size_t i = pointer_hash(key) & b->mask;
    while (b->table[i].key != NULL) {
        if (b->table[i].key == key)
            return b->table[i].index;
        i = (i + 1) & b->mask;
    }
    if (!PyObject_TypeCheck(key, Py_TYPE(b->topic_ids[0])))
        return -1;
    if (b->by_value == NULL) {
        b->by_value = PyDict_New();
        if (b->by_value == NULL)
            return -2;
        for (Py_ssize_t t = 0; t < b->ntopics; t++) {
            PyObject *index = PyLong_FromSsize_t(t);
            if (index == NULL || PyDict_SetItem(b->by_value, b->topic_ids[t], index) < 0) {
                Py_XDECREF(index);
                return -2;
            }
            Py_DECREF(index);
        }
    }
    b->foreign = 1;
    PyObject *found = PyDict_GetItemWithError(b->by_value, key);
    if (found == NULL)
        return PyErr_Occurred() ? -2 : -1;
    return PyLong_AsSsize_t(found);
}

#if HAVE_KNOWN_HASH
static Py_hash_t
topic_hash(builder_t *b, Py_ssize_t t)
{
    if (b->hashes[t] == -1)
        b->hashes[t] = PyObject_Hash(b->topic_ids[t]);
    return b->hashes[t];
}
#endif

static int
set_topic(builder_t *b, PyObject *dict, Py_ssize_t t, PyObject *value)
{
    PyObject *key = b->topic_ids[t];
#if HAVE_KNOWN_HASH
    Py_hash_t hash = topic_hash(b, t);
    if (hash == -1 && PyErr_Occurred())
        return -1;
    return _PyDict_SetItem_KnownHash(dict, key, value, hash);
#else
    return PyDict_SetItem(dict, key, value);
#endif
}

static PyObject *
get_topic(builder_t *b, PyObject *dict, Py_ssize_t t)
{
    PyObject *key = b->topic_ids[t];
#if HAVE_KNOWN_HASH
    Py_hash_t hash = topic_hash(b, t);
    if (hash == -1 && PyErr_Occurred())
        return NULL;
    return _PyDict_GetItem_KnownHash(dict, key, hash);
#else
    return PyDict_GetItemWithError(dict, key);
#endif
}

/* --- Java order of member ids ----------------------------------------------------------------------------- */

/* Java compares strings by UTF-16 code unit. Without characters outside the BMP (no string of the 4-byte kind)
 * that is code point order, which is what this compares. */
static int
java_compare(PyObject *a, PyObject *b)
{
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    Py_ssize_t common = la < lb ? la : lb;
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int c = memcmp(da, db, (size_t)common);
        if (c)
            return c;
    }
    else {
        for (Py_ssize_t i = 0; i < common; i++) {
            Py_UCS4 ca = PyUnicode_READ(ka, da, i), cb = PyUnicode_READ(kb, db, i);
            if (ca != cb)
                return ca < cb ? -1 : 1;
        }
    }
    return la < lb ? -1 : la > lb ? 1 : 0;
}

/* Stable merge sort of member indexes by id (ids are unique, stability only keeps it deterministic). */
static void
sort_members(PyObject *ids, Py_ssize_t *items, Py_ssize_t *scratch, Py_ssize_t count)
{
    if (count < 2)
        return;
    if (count <= 16) {
        for (Py_ssize_t i = 1; i < count; i++) {
            Py_ssize_t v = items[i], j = i;
            PyObject *s = PyList_GET_ITEM(ids, v);
            while (j > 0 && java_compare(PyList_GET_ITEM(ids, items[j - 1]), s) > 0) {
                items[j] = items[j - 1];
                j--;
            }
            items[j] = v;
        }
        return;
    }
    Py_ssize_t half = count / 2;
    sort_members(ids, items, scratch, half);
    sort_members(ids, items + half, scratch, count - half);
    if (java_compare(PyList_GET_ITEM(ids, items[half - 1]), PyList_GET_ITEM(ids, items[half])) <= 0)
        return;
    memcpy(scratch, items, (size_t)half * sizeof(Py_ssize_t));
    Py_ssize_t i = 0, j = half, k = 0;
    while (i < half && j < count) {
        if (java_compare(PyList_GET_ITEM(ids, items[j]), PyList_GET_ITEM(ids, scratch[i])) < 0)
            items[k++] = items[j++];
        else
            items[k++] = scratch[i++];
    }
    while (i < half)
        items[k++] = scratch[i++];
}

/* --- reading the current assignments ---------------------------------------------------------------------- */

/* Read member i's assignment into owner/held/owned; 0, 1 (not the plain case) or -1 (error). */
static int
read_member(builder_t *b, Py_ssize_t i)
{
    PyObject *assignment = b->assigned[i];
    if (!PyDict_CheckExact(assignment)) {
        Py_ssize_t size = PyObject_Length(assignment);
        if (size < 0) {
            PyErr_Clear();
            return 1;
        }
        return size != 0;
    }
    Py_ssize_t pos = 0, count = 0;
    PyObject *key, *parts;
    while (PyDict_Next(assignment, &pos, &key, &parts)) {
        Py_ssize_t t = topic_of(b, key);
        if (t == -2) {
            PyErr_Clear();
            return 1;
        }
        if (t < 0 || !PyFrozenSet_CheckExact(parts) || PySet_GET_SIZE(parts) == 0)
            return 1;
        Py_ssize_t size = b->counts[t];
        int32_t *owner = b->owner + b->offset[t];
#if PY_VERSION_HEX < 0x030C0000
        /* A frozenset's table, read in place: an exact int from 0 to 2**30 - 1 (one digit or none) is its own
         * hash, which the table stores beside it. */
        PySetObject *set = (PySetObject *)parts;
        Py_ssize_t left = set->used;
        for (Py_ssize_t at = 0; left > 0 && at <= set->mask; at++) {
            PyObject *item = set->table[at].key;
            if (item == NULL || item == _PySet_Dummy)
                continue;
            left--;
            if (!PyLong_CheckExact(item) || Py_SIZE(item) < 0 || Py_SIZE(item) > 1)
                return 1;
            Py_ssize_t p = set->table[at].hash;
#else
        PyObject *iter = PyObject_GetIter(parts), *item;
        if (iter == NULL)
            return -1;
        while ((item = PyIter_Next(iter)) != NULL) {
            Py_DECREF(item); /* the set holds it */
            if (!PyLong_CheckExact(item)) {
                Py_DECREF(iter);
                return 1;
            }
            Py_ssize_t p = PyLong_AsSsize_t(item);
            if (p == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                Py_DECREF(iter);
                return 1;
            }
#endif
            if (p < 0 || p >= size || owner[p]) {
#if PY_VERSION_HEX >= 0x030C0000
                Py_DECREF(iter);
#endif
                return 1;
            }
            owner[p] = (int32_t)(i + 1);
        }
#if PY_VERSION_HEX >= 0x030C0000
        Py_DECREF(iter);
        if (PyErr_Occurred())
            return -1;
#endif
        count += PySet_GET_SIZE(parts);
        b->owned[t] += PySet_GET_SIZE(parts);
    }
    b->held[i] = count;
    return 0;
}

/* --- building the result ---------------------------------------------------------------------------------- */

static PyObject *
frozenset_of(const Py_ssize_t *parts, Py_ssize_t first, Py_ssize_t count)
{
    /* Consecutive partitions from `first` when `parts` is NULL. */
    PyObject *set = PyFrozenSet_New(NULL);
    if (set == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *p = PyLong_FromSsize_t(parts ? parts[k] : first + k);
        if (p == NULL || PySet_Add(set, p) < 0) {
            Py_XDECREF(p);
            Py_DECREF(set);
            return NULL;
        }
        Py_DECREF(p);
    }
    PyObject_GC_UnTrack(set); /* ints only: it cannot be part of a cycle, and the collector need not see it */
    return set;
}

/* A result dict just made or changed: untracked when it may be (see run). A dict tracks itself again when an
 * object that may be tracked goes in, so this follows every change. */
static void
settle(builder_t *b, PyObject *result)
{
    if (b->untrack && PyObject_GC_IsTracked(result))
        PyObject_GC_UnTrack(result);
}

/* Member i's result dict, made on first need: a copy of its current assignment. */
static PyObject *
result_of(builder_t *b, Py_ssize_t i)
{
    if (b->result[i] == NULL) {
        PyObject *assignment = b->assigned[i];
        b->result[i] = PyDict_CheckExact(assignment) ? PyDict_Copy(assignment) : PyDict_New();
        if (b->result[i] != NULL)
            settle(b, b->result[i]);
    }
    return b->result[i];
}

typedef struct {
    Py_ssize_t t;
    PyObject *key, *parts;
} entry_t;

/* Keep the member's first `cap` partitions (topics in Uuid order, partitions ascending); the rest are freed. */
static int
trim(builder_t *b, Py_ssize_t member, Py_ssize_t cap)
{
    PyObject *assignment = b->assigned[member];
    Py_ssize_t size = PyDict_GET_SIZE(assignment), pos = 0, k = 0;
    entry_t *entries = PyMem_Malloc((size_t)size * sizeof(entry_t));
    Py_ssize_t *ascending = NULL;
    PyObject *trimmed = NULL, *key, *parts;
    if (entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    while (k < size && PyDict_Next(assignment, &pos, &key, &parts)) {
        Py_ssize_t t = topic_of(b, key), j = k++;
        if (t < 0) { /* read_member found it: only a failing __hash__ or __eq__ gets here */
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "a topic id of a current assignment changed while assigning");
            goto error;
        }
        while (j > 0 && entries[j - 1].t > t) {
            entries[j] = entries[j - 1];
            j--;
        }
        entries[j] = (entry_t){t, key, parts};
    }
    size = k;
    trimmed = PyDict_New();
    if (trimmed == NULL)
        goto error;
    Py_ssize_t room = cap;
    for (k = 0; k < size; k++) {
        Py_ssize_t t = entries[k].t, count = PySet_GET_SIZE(entries[k].parts);
        if (room >= count) {
            if (PyDict_SetItem(trimmed, entries[k].key, entries[k].parts) < 0)
                goto error;
            room -= count;
            continue;
        }
        int32_t *owner = b->owner + b->offset[t];
        int32_t mark = (int32_t)(member + 1);
        Py_ssize_t seen = 0;
        if (room) {
            ascending = PyMem_Malloc((size_t)room * sizeof(Py_ssize_t));
            if (ascending == NULL) {
                PyErr_NoMemory();
                goto error;
            }
        }
        for (Py_ssize_t p = 0; p < b->counts[t]; p++) {
            if (owner[p] != mark)
                continue;
            if (seen < room)
                ascending[seen] = p;
            else {
                owner[p] = 0;
                b->owned[t]--;
            }
            seen++;
        }
        if (room) {
            PyObject *kept = frozenset_of(ascending, 0, room);
            PyMem_Free(ascending);
            ascending = NULL;
            if (kept == NULL)
                goto error;
            int failed = PyDict_SetItem(trimmed, entries[k].key, kept);
            Py_DECREF(kept);
            if (failed < 0)
                goto error;
        }
        room = 0;
    }
    PyMem_Free(entries);
    settle(b, trimmed);
    Py_XSETREF(b->result[member], trimmed);
    b->held[member] = cap;
    return 0;
error:
    PyMem_Free(entries);
    PyMem_Free(ascending);
    Py_XDECREF(trimmed);
    return -1;
}

/* Give member `member` the partitions `got` of topic t. */
static int
give(builder_t *b, Py_ssize_t member, Py_ssize_t t, PyObject *got)
{
    PyObject *result = b->result[member];
    if (result == NULL && PyDict_CheckExact(b->assigned[member]) &&
        PyDict_GET_SIZE(b->assigned[member]) == 0)
        result = b->result[member] = PyDict_New();
    else
        result = result_of(b, member);
    if (result == NULL)
        return -1;
    PyObject *owned = PyDict_GET_SIZE(result) ? get_topic(b, result, t) : NULL;
    int failed;
    if (owned == NULL) {
        if (PyErr_Occurred())
            return -1;
        failed = set_topic(b, result, t, got);
    }
    else {
        PyObject *both = PyNumber_Or(owned, got);
        if (both == NULL)
            return -1;
        PyObject_GC_UnTrack(both);
        failed = set_topic(b, result, t, both);
        Py_DECREF(both);
    }
    settle(b, result);
    return failed;
}

/* Deal the free partitions, topic by topic, to `members` in turn, each its `need`; runs of a topic nobody
 * holds are shared by position and size. 0, 1 (the counts do not add up: left to the reference) or -1. */
static int
deal(builder_t *b, const Py_ssize_t *members, Py_ssize_t nmembers, Py_ssize_t quota)
{
    Py_ssize_t t = 0, pos = 0, nfree = 0, biggest = 0;
    Py_ssize_t *free = NULL;
    PyObject **runs = NULL;
    Py_ssize_t *run_size = NULL;
    int status = -1;
    for (Py_ssize_t k = 0; k < b->ntopics; k++)
        if (b->counts[k] > biggest)
            biggest = b->counts[k];
    free = PyMem_Malloc((size_t)(biggest + 1) * sizeof(Py_ssize_t));
    runs = PyMem_Calloc((size_t)(biggest + 1), sizeof(PyObject *));
    run_size = PyMem_Calloc((size_t)(biggest + 1), sizeof(Py_ssize_t));
    if (free == NULL || runs == NULL || run_size == NULL) {
        PyErr_NoMemory();
        goto done;
    }
#define NEXT_TOPIC()                                                                              \
    for (; t < b->ntopics; t++) {                                                                 \
        nfree = b->counts[t] - b->owned[t];                                                       \
        if (nfree > 0)                                                                            \
            break;                                                                                \
    }                                                                                             \
    if (t < b->ntopics && b->owned[t]) {                                                          \
        const int32_t *owner = b->owner + b->offset[t];                                           \
        Py_ssize_t f = 0;                                                                         \
        for (Py_ssize_t p = 0; p < b->counts[t]; p++)                                             \
            if (!owner[p])                                                                        \
                free[f++] = p;                                                                    \
    }
    NEXT_TOPIC();
    for (Py_ssize_t k = 0; k < nmembers; k++) {
        Py_ssize_t member = members[k];
        Py_ssize_t need = quota + b->plus[member] - b->held[member];
        while (need > 0) {
            if (t >= b->ntopics) {
                status = 1;
                goto done;
            }
            Py_ssize_t take = need < nfree - pos ? need : nfree - pos;
            PyObject *got;
            if (b->owned[t] == 0) {
                if (runs[pos] == NULL || run_size[pos] != take) {
                    Py_XDECREF(runs[pos]);
                    runs[pos] = frozenset_of(NULL, pos, take);
                    run_size[pos] = take;
                    if (runs[pos] == NULL)
                        goto done;
                }
                got = runs[pos];
                Py_INCREF(got);
            }
            else {
                got = frozenset_of(free + pos, 0, take);
                if (got == NULL)
                    goto done;
            }
            int failed = give(b, member, t, got);
            Py_DECREF(got);
            if (failed < 0)
                goto done;
            need -= take;
            pos += take;
            if (pos == nfree) {
                t++;
                pos = 0;
                NEXT_TOPIC();
            }
        }
    }
#undef NEXT_TOPIC
    status = t < b->ntopics ? 1 : 0;
done:
    if (runs != NULL)
        for (Py_ssize_t p = 0; p <= biggest; p++)
            Py_XDECREF(runs[p]);
    PyMem_Free(free);
    PyMem_Free(runs);
    PyMem_Free(run_size);
    return status;
}

static int
build(builder_t *b)
{
    Py_ssize_t n = b->n, quota = b->total / n, extra = b->total % n, nover = 0, nplus = 0;
    Py_ssize_t *order = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *scratch = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    int status = -1;
    if (order == NULL || scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* The `extra` quota + 1 slots go first to members holding more than the quota (Java order of id), then to
     * the others in that order. */
    for (Py_ssize_t i = 0; i < n; i++)
        if (b->held[i] > quota)
            order[nover++] = i;
    if (extra) {
        sort_members(b->member_ids, order, scratch, nover);
        for (Py_ssize_t k = 0; k < nover && nplus < extra; k++, nplus++)
            b->plus[order[k]] = 1;
        if (nplus < extra) {
            for (Py_ssize_t i = 0; i < n; i++)
                scratch[i] = i;
            Py_ssize_t *everyone = scratch;
            Py_ssize_t *spare = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
            if (spare == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            sort_members(b->member_ids, everyone, spare, n);
            PyMem_Free(spare);
            for (Py_ssize_t k = 0; k < n && nplus < extra; k++)
                if (!b->plus[everyone[k]]) {
                    b->plus[everyone[k]] = 1;
                    nplus++;
                }
        }
        nover = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (b->held[i] > quota)
                order[nover++] = i;
    }
    for (Py_ssize_t k = 0; k < nover; k++) {
        Py_ssize_t member = order[k], cap = quota + b->plus[member];
        if (b->held[member] > cap && trim(b, member, cap) < 0)
            goto done;
    }
    Py_ssize_t nbelow = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (b->held[i] < quota + b->plus[i])
            order[nbelow++] = i;
    sort_members(b->member_ids, order, scratch, nbelow);
    status = deal(b, order, nbelow, quota);
    if (status == 0 && b->fresh) {
        /* Nobody owned anything: the reference lists the members in Java order then. */
        if (nbelow < n) {
            for (Py_ssize_t i = 0; i < n; i++)
                order[i] = i;
            sort_members(b->member_ids, order, scratch, n);
        }
        b->listing = order;
        order = NULL;
    }
done:
    PyMem_Free(order);
    PyMem_Free(scratch);
    return status;
}

static void
release(builder_t *b)
{
    if (b->result != NULL)
        for (Py_ssize_t i = 0; i < b->n; i++)
            Py_XDECREF(b->result[i]);
    if (b->owned_refs != NULL) {
        for (Py_ssize_t i = 0; i < b->n; i++)
            Py_XDECREF(b->owned_refs[i]);
        for (Py_ssize_t t = 0; t < b->ntopics; t++)
            Py_XDECREF(b->owned_refs[b->n + t]);
    }
    Py_XDECREF(b->by_value);
    PyMem_Free(b->owned_refs);
    PyMem_Free(b->counts);
    PyMem_Free(b->offset);
    PyMem_Free(b->owned);
    PyMem_Free(b->held);
    PyMem_Free(b->owner);
    PyMem_Free(b->table);
    PyMem_Free(b->hashes);
    PyMem_Free(b->result);
    PyMem_Free(b->plus);
    PyMem_Free(b->listing);
}

/* Allocates the arrays; the caller then fills assigned, topic_ids, counts and hashes. 0 or -1. */
static int
allocate(builder_t *b)
{
    Py_ssize_t n = b->n, nt = b->ntopics;
    b->owned_refs = PyMem_Calloc((size_t)(n + nt), sizeof(PyObject *));
    b->counts = PyMem_Malloc((size_t)nt * sizeof(Py_ssize_t));
    b->offset = PyMem_Malloc((size_t)nt * sizeof(Py_ssize_t));
    b->owned = PyMem_Calloc((size_t)nt, sizeof(Py_ssize_t));
    b->hashes = PyMem_Malloc((size_t)nt * sizeof(Py_hash_t));
    b->held = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    b->result = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    b->plus = PyMem_Calloc((size_t)n, 1);
    if (!b->owned_refs || !b->counts || !b->offset || !b->owned || !b->hashes || !b->held || !b->result ||
        !b->plus) {
        PyErr_NoMemory();
        return -1;
    }
    b->assigned = b->owned_refs;
    b->topic_ids = b->owned_refs + n;
    for (Py_ssize_t t = 0; t < nt; t++)
        b->hashes[t] = -1;
    return 0;
}

/* Checks the member ids and counts, lays out the partitions and the topic table; 0, 1 (not the plain case)
 * or -1. */
static int
lay_out(builder_t *b)
{
    Py_ssize_t n = b->n, nt = b->ntopics, total = 0;
    if (n > INT32_MAX - 1)
        return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyList_GET_ITEM(b->member_ids, i);
        if (!PyUnicode_Check(id) || PyUnicode_READY(id) < 0 || PyUnicode_KIND(id) == PyUnicode_4BYTE_KIND) {
            PyErr_Clear();
            return 1;
        }
    }
    size_t size = 16;
    while (size < (size_t)nt * 4)
        size <<= 1;
    b->mask = size - 1;
    b->table = PyMem_Calloc(size, sizeof(slot_t));
    if (b->table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        Py_ssize_t count = b->counts[t];
        if (count < 0 || count > MAX_PARTITIONS - total)
            return 1;
        b->offset[t] = total;
        total += count;
        PyObject *key = b->topic_ids[t];
        size_t i = pointer_hash(key) & b->mask;
        while (b->table[i].key != NULL && b->table[i].key != key)
            i = (i + 1) & b->mask;
        b->table[i] = (slot_t){key, t};
    }
    b->total = total;
    b->owner = PyMem_Calloc((size_t)total + 1, sizeof(int32_t));
    if (b->owner == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Reads, builds and lists the members' results in `into` (a new dict when NULL). The result, None when the
 * input is not the plain case, or NULL on error. */
static PyObject *
run(builder_t *b, PyObject *into)
{
    int status = lay_out(b);
    for (Py_ssize_t i = 0; status == 0 && i < b->n; i++)
        status = read_member(b, i);
    if (status == 0) {
        /* A result maps topic ids (uuid.UUID: immutable) to frozensets of ints, so it can be part of a cycle
         * only once the caller puts something else in it, and a dict tracks itself again then. Untracked, the
         * results of a large group do not make the collector walk them, nor run a full collection each time. */
        b->untrack = !b->foreign;
        for (Py_ssize_t t = 0; b->untrack && t < b->ntopics; t++)
            b->untrack = Py_IS_TYPE(b->topic_ids[t], uuid_type);
        b->fresh = 1;
        for (Py_ssize_t i = 0; b->fresh && i < b->n; i++)
            b->fresh = b->held[i] == 0;
        status = build(b);
    }
    if (status != 0)
        return status < 0 ? NULL : Py_NewRef(Py_None);
    if (into == NULL) {
#if HAVE_KNOWN_HASH
        into = _PyDict_NewPresized(b->n);
#else
        into = PyDict_New();
#endif
        if (into == NULL)
            return NULL;
    }
    else
        Py_INCREF(into);
    for (Py_ssize_t k = 0; k < b->n; k++) {
        Py_ssize_t i = b->listing ? b->listing[k] : k;
        PyObject *result = result_of(b, i);
        if (result == NULL || PyDict_SetItem(into, PyList_GET_ITEM(b->member_ids, i), result) < 0) {
            Py_DECREF(into);
            return NULL;
        }
    }
    return into;
}

static PyObject *
homogeneous(PyObject *module, PyObject *args)
{
    PyObject *member_ids, *assigned, *topic_ids, *counts, *into;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!:homogeneous", &PyList_Type, &member_ids, &PyList_Type, &assigned,
                          &PyList_Type, &topic_ids, &PyList_Type, &counts, &PyDict_Type, &into))
        return NULL;
    builder_t b;
    memset(&b, 0, sizeof(b));
    b.n = PyList_GET_SIZE(member_ids);
    b.ntopics = PyList_GET_SIZE(topic_ids);
    if (b.n == 0 || b.ntopics == 0 || PyList_GET_SIZE(assigned) != b.n || PyList_GET_SIZE(counts) != b.ntopics)
        Py_RETURN_NONE;
    /* Held for the call: Python code (a topic id's __hash__) may run meanwhile. */
    b.member_ids = Py_NewRef(member_ids);
    PyObject *answer = NULL;
    if (allocate(&b) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < b.n; i++)
        b.assigned[i] = Py_NewRef(PyList_GET_ITEM(assigned, i));
    for (Py_ssize_t t = 0; t < b.ntopics; t++) {
        b.topic_ids[t] = Py_NewRef(PyList_GET_ITEM(topic_ids, t));
        PyObject *count = PyList_GET_ITEM(counts, t);
        b.counts[t] = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
        if (b.counts[t] < 0) { /* not an int, or too large for the arrays: the reference decides */
            PyErr_Clear();
            answer = Py_NewRef(Py_None);
            goto done;
        }
    }
    answer = run(&b, into);
done:
    release(&b);
    Py_DECREF(member_ids);
    return answer;
}

#if HAVE_KNOWN_HASH
/* The offset of a slot (a member descriptor of `type` holding an object), or -1. */
static Py_ssize_t
slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    Py_ssize_t offset = -1;
    if (descr == NULL) {
        PyErr_Clear();
        return -1;
    }
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type) && ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX)
        offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    Py_DECREF(descr);
    return offset;
}

typedef struct {
    unsigned char key[16]; /* the Uuid's unsigned 128-bit value, big-endian: bytes compare as Kafka's Uuids */
    PyObject *topic;
    Py_hash_t hash;
    Py_ssize_t count;
} topic_entry_t;

static int
compare_topics(const void *a, const void *b)
{
    return memcmp(((const topic_entry_t *)a)->key, ((const topic_entry_t *)b)->key, 16);
}

#endif

static PyObject *
alike(PyObject *module, PyObject *args)
{
    PyObject *member_ids, *specs, *topics;
    if (!PyArg_ParseTuple(args, "O!O!O:alike", &PyList_Type, &member_ids, &PyList_Type, &specs, &topics))
        return NULL;
#if HAVE_KNOWN_HASH
    Py_ssize_t n = PyList_GET_SIZE(specs);
    if (n == 0 || PyList_GET_SIZE(member_ids) != n || !PyDict_CheckExact(topics))
        Py_RETURN_NONE;
    PyTypeObject *type = Py_TYPE(PyList_GET_ITEM(specs, 0));
    Py_ssize_t subscribed_at = slot_offset(type, "subscribed_topic_ids"), assigned_at = slot_offset(type, "assigned");
    if (subscribed_at < 0 || assigned_at < 0)
        Py_RETURN_NONE;
#define SLOT(object, offset) (*(PyObject **)((char *)(object) + (offset)))
    PyObject *subscribed = SLOT(PyList_GET_ITEM(specs, 0), subscribed_at);
    if (subscribed == NULL || !PyFrozenSet_CheckExact(subscribed) || PySet_GET_SIZE(subscribed) == 0)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *spec = PyList_GET_ITEM(specs, i);
        if (!Py_IS_TYPE(spec, type) || SLOT(spec, subscribed_at) != subscribed || SLOT(spec, assigned_at) == NULL)
            Py_RETURN_NONE;
    }

    builder_t b;
    memset(&b, 0, sizeof(b));
    b.n = n;
    b.ntopics = PySet_GET_SIZE(subscribed);
    b.member_ids = Py_NewRef(member_ids);
    Py_INCREF(subscribed);
    PyObject *answer = NULL;
    /* Topics in Uuid order, each with its count and the hash the set stores: no topic id is hashed in Python. */
    topic_entry_t *entries = NULL;
    if (allocate(&b) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        b.assigned[i] = Py_NewRef(SLOT(PyList_GET_ITEM(specs, i), assigned_at));
#undef SLOT
    entries = PyMem_Calloc((size_t)b.ntopics, sizeof(topic_entry_t));
    if (entries == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t pos = 0, t = 0;
    PyObject *topic;
    Py_hash_t hash;
    while (_PySet_NextEntry(subscribed, &pos, &topic, &hash)) {
        if (!Py_IS_TYPE(topic, uuid_type))
            goto decline;
        PyObject *count = _PyDict_GetItem_KnownHash(topics, topic, hash);
        if (count == NULL) {
            if (PyErr_Occurred())
                goto done;
            goto decline; /* not a known topic: the reference resolves the subscription */
        }
        PyObject *value = PyObject_GetAttr(topic, int_name);
        if (value == NULL)
            goto done;
        int failed = !PyLong_CheckExact(value) ||
                     _PyLong_AsByteArray((PyLongObject *)value, entries[t].key, 16, 0, 0) < 0 ||
                     !PyLong_CheckExact(count) || (entries[t].count = PyLong_AsSsize_t(count)) < 0;
        Py_DECREF(value);
        if (failed) {
            PyErr_Clear();
            goto decline;
        }
        entries[t].topic = topic;
        entries[t].hash = hash;
        t++;
    }
    qsort(entries, (size_t)b.ntopics, sizeof(topic_entry_t), compare_topics);
    for (t = 0; t < b.ntopics; t++) {
        b.topic_ids[t] = Py_NewRef(entries[t].topic);
        b.hashes[t] = entries[t].hash;
        b.counts[t] = entries[t].count;
    }
    answer = run(&b, NULL);
    goto done;
decline:
    answer = Py_NewRef(Py_None);
done:
    PyMem_Free(entries);
    release(&b);
    Py_DECREF(subscribed);
    Py_DECREF(member_ids);
    return answer;
#else
    Py_RETURN_NONE; /* the private calls it needs are not there: the Python path groups the members */
#endif
}

/* --- the heterogeneous builder's hot loops ---------------------------------------------------------------- */

/* `_Heterogeneous` in uniform.py stays the rule; three of its steps run here when the input is the plain case:
 * `keep_all` (every current assignment kept as it is: a hash of a topic id per assignment entry in Python),
 * the dealing of free partitions (a few heap operations and a frozenset per partition in Python), and the
 * balancing after them (a few heap operations and set changes per move). Each returns None, having changed
 * nothing, for input it does not take, and the Python step runs instead. */

#if HAVE_KNOWN_HASH

typedef struct {
    Py_ssize_t ntopics;
    PyObject **ids;     /* borrowed: the callers' objects, alive for the call */
    Py_hash_t *hashes;
    Py_ssize_t *counts; /* partitions per topic */
    Py_ssize_t *slots;  /* open addressing by hash: topic index + 1, 0 when empty */
    size_t mask;
} topic_table_t;

static void
table_release(topic_table_t *tt)
{
    PyMem_Free(tt->ids);
    PyMem_Free(tt->hashes);
    PyMem_Free(tt->counts);
    PyMem_Free(tt->slots);
}

/* The index of the topic equal to `key` (whose hash is `hash`), -1 when none is, -2 on a Python error. */
static Py_ssize_t
table_find(topic_table_t *tt, PyObject *key, Py_hash_t hash)
{
    size_t i = (size_t)hash & tt->mask;
    while (tt->slots[i]) {
        Py_ssize_t t = tt->slots[i] - 1;
        if (tt->hashes[t] == hash) {
            if (tt->ids[t] == key)
                return t;
            int same = PyObject_RichCompareBool(tt->ids[t], key, Py_EQ);
            if (same < 0)
                return -2;
            if (same)
                return t;
        }
        i = (i + 1) & tt->mask;
    }
    return -1;
}

/* The union of the class subscriptions, each topic with its partition count from `topics`; 0, 1 (not the
 * plain case) or -1. */
static int
table_build(topic_table_t *tt, PyObject *class_topics, PyObject *topics)
{
    Py_ssize_t cap = 0;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(class_topics); c++) {
        PyObject *subscribed = PyList_GET_ITEM(class_topics, c);
        if (!PyFrozenSet_CheckExact(subscribed))
            return 1;
        cap += PySet_GET_SIZE(subscribed);
    }
    size_t size = 16;
    while (size < (size_t)cap * 2 + 1)
        size <<= 1;
    tt->mask = size - 1;
    tt->slots = PyMem_Calloc(size, sizeof(Py_ssize_t));
    tt->ids = PyMem_Malloc((size_t)(cap + 1) * sizeof(PyObject *));
    tt->hashes = PyMem_Malloc((size_t)(cap + 1) * sizeof(Py_hash_t));
    tt->counts = PyMem_Malloc((size_t)(cap + 1) * sizeof(Py_ssize_t));
    if (!tt->slots || !tt->ids || !tt->hashes || !tt->counts) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(class_topics); c++) {
        PyObject *subscribed = PyList_GET_ITEM(class_topics, c), *key;
        Py_ssize_t pos = 0;
        Py_hash_t hash;
        while (_PySet_NextEntry(subscribed, &pos, &key, &hash)) {
            Py_ssize_t t = table_find(tt, key, hash);
            if (t == -2)
                return -1;
            if (t >= 0)
                continue;
            PyObject *count = _PyDict_GetItem_KnownHash(topics, key, hash);
            if (count == NULL)
                return PyErr_Occurred() ? -1 : 1;
            Py_ssize_t value = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
            if (value < 0 || value > MAX_PARTITIONS - total) {
                PyErr_Clear();
                return 1;
            }
            total += value;
            t = tt->ntopics++;
            tt->ids[t] = key;
            tt->hashes[t] = hash;
            tt->counts[t] = value;
            size_t i = (size_t)hash & tt->mask;
            while (tt->slots[i])
                i = (i + 1) & tt->mask;
            tt->slots[i] = t + 1;
        }
    }
    return 0;
}

/* Marks a kept entry's partitions as member i's; 0, or 1 when it is not a non-empty frozenset of ints in range
 * that nobody else holds. */
static int
own_parts(PyObject *parts, int32_t *owner, Py_ssize_t count, Py_ssize_t i)
{
    if (!PyFrozenSet_CheckExact(parts) || PySet_GET_SIZE(parts) == 0)
        return 1;
    Py_ssize_t at = 0;
    PyObject *item;
    Py_hash_t hash;
    while (_PySet_NextEntry(parts, &at, &item, &hash)) {
        Py_ssize_t p = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        if (p < 0 || p >= count || owner[p]) {
            PyErr_Clear();
            return 1;
        }
        owner[p] = (int32_t)(i + 1);
    }
    return 0;
}

/* keep(assigned, class_of, class_topics, topics) -> (work, counts, holders, free), or None. */
static PyObject *
hetero_keep(PyObject *module, PyObject *args)
{
    PyObject *assigned, *class_of, *class_topics, *topics;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:keep", &PyList_Type, &assigned, &PyList_Type, &class_of, &PyList_Type,
                          &class_topics, &PyDict_Type, &topics))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(assigned), nclasses = PyList_GET_SIZE(class_topics);
    if (PyList_GET_SIZE(class_of) != n || n > INT32_MAX - 1)
        Py_RETURN_NONE;
    /* Held for the call: Python code (a topic id's __eq__) may run meanwhile. */
    Py_INCREF(assigned);
    Py_INCREF(class_of);
    Py_INCREF(class_topics);
    Py_INCREF(topics);
    topic_table_t tt;
    memset(&tt, 0, sizeof(tt));
    Py_ssize_t *offset = NULL, *counts = NULL;
    int32_t *owner = NULL;
    char *subscribed = NULL;
    int *classes = NULL;
    PyObject *answer = NULL, *work = NULL, *count_list = NULL, *holders = NULL, *free = NULL;
    int status = table_build(&tt, class_topics, topics);
    if (status != 0)
        goto finish;
    Py_ssize_t nt = tt.ntopics, total = 0;
    if (nclasses > 0 && nt > 0 && (size_t)nclasses > ((size_t)1 << 28) / (size_t)nt) {
        status = 1;
        goto finish;
    }
    offset = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_ssize_t));
    counts = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    subscribed = PyMem_Calloc((size_t)(nclasses * nt) + 1, 1);
    classes = PyMem_Malloc((size_t)n * sizeof(int) + 1);
    if (!offset || !counts || !subscribed || !classes) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        offset[t] = total;
        total += tt.counts[t];
    }
    owner = PyMem_Calloc((size_t)total + 1, sizeof(int32_t));
    if (owner == NULL) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    for (Py_ssize_t c = 0; c < nclasses; c++) {
        PyObject *topic_set = PyList_GET_ITEM(class_topics, c), *key;
        Py_ssize_t pos = 0;
        Py_hash_t hash;
        while (_PySet_NextEntry(topic_set, &pos, &key, &hash)) {
            Py_ssize_t t = table_find(&tt, key, hash);
            if (t < 0) {
                status = t == -2 ? -1 : 1;
                goto finish;
            }
            subscribed[c * nt + t] = 1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyList_GET_ITEM(class_of, i);
        Py_ssize_t value = PyLong_CheckExact(c) ? PyLong_AsSsize_t(c) : -1;
        if (value < 0 || value >= nclasses) {
            PyErr_Clear();
            status = 1;
            goto finish;
        }
        classes[i] = (int)value;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *assignment = PyList_GET_ITEM(assigned, i), *key, *parts;
        if (!PyDict_CheckExact(assignment)) {
            Py_ssize_t size = PyObject_Length(assignment);
            if (size != 0) {
                PyErr_Clear();
                status = 1;
                goto finish;
            }
            continue;
        }
        Py_ssize_t pos = 0;
        Py_hash_t hash;
        while (_PyDict_Next(assignment, &pos, &key, &parts, &hash)) {
            /* A topic id's __eq__ may run: the entry is held while it is read. */
            Py_INCREF(key);
            Py_INCREF(parts);
            Py_ssize_t t = table_find(&tt, key, hash);
            Py_DECREF(key);
            int verdict = t == -2 ? -1 : t < 0 || !subscribed[classes[i] * nt + t] ? 1
                                                  : own_parts(parts, owner + offset[t], tt.counts[t], i);
            if (verdict == 0)
                counts[i] += PySet_GET_SIZE(parts);
            Py_DECREF(parts);
            if (verdict != 0) {
                status = verdict;
                goto finish;
            }
        }
    }
    /* Every entry may be kept: the results. */
    work = PyList_New(n);
    count_list = PyList_New(n);
    holders = PyDict_New();
    free = PyDict_New();
    if (!work || !count_list || !holders || !free) {
        status = -1;
        goto finish;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *assignment = PyList_GET_ITEM(assigned, i);
        PyObject *copy = PyDict_CheckExact(assignment) ? PyDict_Copy(assignment) : PyDict_New();
        PyObject *value = PyLong_FromSsize_t(counts[i]);
        if (copy == NULL || value == NULL) {
            Py_XDECREF(copy);
            Py_XDECREF(value);
            status = -1;
            goto finish;
        }
        PyList_SET_ITEM(work, i, copy);
        PyList_SET_ITEM(count_list, i, value);
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        int32_t *topic_owner = owner + offset[t];
        PyObject *owners = NULL, *left = NULL;
        Py_ssize_t held = 0;
        for (Py_ssize_t p = 0; p < tt.counts[t]; p++)
            held += topic_owner[p] != 0;
        if (held == 0)
            continue;
        owners = PySet_New(NULL);
        left = PyList_New(tt.counts[t] - held);
        if (owners == NULL || left == NULL)
            goto topic_failed;
        Py_ssize_t k = 0;
        for (Py_ssize_t p = 0; p < tt.counts[t]; p++) {
            PyObject *value = PyLong_FromSsize_t(topic_owner[p] ? topic_owner[p] - 1 : p);
            if (value == NULL)
                goto topic_failed;
            if (topic_owner[p]) {
                int failed = PySet_Add(owners, value);
                Py_DECREF(value);
                if (failed < 0)
                    goto topic_failed;
            }
            else
                PyList_SET_ITEM(left, k++, value);
        }
        if (_PyDict_SetItem_KnownHash(holders, tt.ids[t], owners, tt.hashes[t]) < 0 ||
            _PyDict_SetItem_KnownHash(free, tt.ids[t], left, tt.hashes[t]) < 0)
            goto topic_failed;
        Py_DECREF(owners);
        Py_DECREF(left);
        continue;
    topic_failed:
        Py_XDECREF(owners);
        Py_XDECREF(left);
        status = -1;
        goto finish;
    }
    answer = PyTuple_Pack(4, work, count_list, holders, free);
    if (answer == NULL)
        status = -1;
finish:
    Py_XDECREF(work);
    Py_XDECREF(count_list);
    Py_XDECREF(holders);
    Py_XDECREF(free);
    PyMem_Free(offset);
    PyMem_Free(counts);
    PyMem_Free(subscribed);
    PyMem_Free(classes);
    PyMem_Free(owner);
    table_release(&tt);
    Py_DECREF(assigned);
    Py_DECREF(class_of);
    Py_DECREF(class_topics);
    Py_DECREF(topics);
    if (status > 0) {
        Py_XDECREF(answer);
        Py_RETURN_NONE;
    }
    return status < 0 ? NULL : answer;
}

typedef struct {
    Py_ssize_t count, member, version, cls;
} heap_entry_t;

typedef struct {
    heap_entry_t *items;
    Py_ssize_t size, cap;
} heap_t;

/* Python's heap order of (count, member, version) tuples; `cls` rides along. */
static int
entry_less(const heap_entry_t *a, const heap_entry_t *b)
{
    if (a->count != b->count)
        return a->count < b->count;
    if (a->member != b->member)
        return a->member < b->member;
    return a->version < b->version;
}

static void
heap_down(heap_t *h, Py_ssize_t i)
{
    heap_entry_t e = h->items[i];
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= h->size)
            break;
        if (child + 1 < h->size && entry_less(&h->items[child + 1], &h->items[child]))
            child++;
        if (!entry_less(&h->items[child], &e))
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    h->items[i] = e;
}

static int
heap_push(heap_t *h, heap_entry_t e)
{
    if (h->size == h->cap) {
        Py_ssize_t cap = h->cap ? h->cap * 2 : 8;
        heap_entry_t *items = PyMem_Realloc(h->items, (size_t)cap * sizeof(heap_entry_t));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        h->items = items;
        h->cap = cap;
    }
    Py_ssize_t i = h->size++;
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (!entry_less(&e, &h->items[parent]))
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = e;
    return 0;
}

static void
heap_pop(heap_t *h)
{
    h->items[0] = h->items[--h->size];
    if (h->size > 0)
        heap_down(h, 0);
}

/* Drops the stale entries (version behind the member's) at the top of a class's heap. */
static void
heap_settle(heap_t *h, const Py_ssize_t *version)
{
    while (h->size > 0 && h->items[0].version != version[h->items[0].member])
        heap_pop(h);
}

/* A list of exact non-negative ints into `out`; 0 or 1 (not that). */
static int
read_sizes(PyObject *list, Py_ssize_t *out, Py_ssize_t limit)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        Py_ssize_t value = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        if (value < 0 || value >= limit) {
            PyErr_Clear();
            return 1;
        }
        out[i] = value;
    }
    return 0;
}

/* Whether a topic's subscriber classes (a list) are all exact ints naming one of the `nclasses` classes. */
static int
plain_classes(PyObject *subscribers, Py_ssize_t nclasses)
{
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(subscribers); k++) {
        PyObject *item = PyList_GET_ITEM(subscribers, k);
        Py_ssize_t c = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        if (c < 0 || c >= nclasses) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* Each topic's hash, once, for the known-hash dict calls of deal and balance; -1 with an exception set. */
static int
hash_each(PyObject *topics, Py_ssize_t nt, Py_hash_t *hashes)
{
    for (Py_ssize_t t = 0; t < nt; t++) {
        hashes[t] = PyObject_Hash(PyList_GET_ITEM(topics, t));
        if (hashes[t] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* Every member in its class's heap of (count, member), as `_Heterogeneous.make_heaps` builds them. */
static int
fill_class_heaps(heap_t *heaps, const Py_ssize_t *classes, const Py_ssize_t *counts, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (heap_push(&heaps[classes[i]], (heap_entry_t){counts[i], i, 0, classes[i]}) < 0)
            return -1;
    return 0;
}

static void
free_class_heaps(heap_t *heaps, Py_ssize_t nclasses)
{
    if (heaps != NULL)
        for (Py_ssize_t c = 0; c < nclasses; c++)
            PyMem_Free(heaps[c].items);
    PyMem_Free(heaps);
}

/* deal(ordered, frees, topic_classes, class_of, counts, work, holders) -> the members' new counts, or None.
 * `_Heterogeneous.deal` for each topic of `ordered` in turn: frees[t] its free partitions (a range or a list),
 * topic_classes[t] its subscriber classes; work (the members' assignment dicts) and holders (topic id -> set of
 * members) are changed as the Python steps change them, entry order included. */
static PyObject *
hetero_deal(PyObject *module, PyObject *args)
{
    PyObject *ordered, *frees, *topic_classes, *class_of, *counts_in, *work, *holders;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!:deal", &PyList_Type, &ordered, &PyList_Type, &frees, &PyList_Type,
                          &topic_classes, &PyList_Type, &class_of, &PyList_Type, &counts_in, &PyList_Type, &work,
                          &PyDict_Type, &holders))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(counts_in), nt = PyList_GET_SIZE(ordered);
    if (PyList_GET_SIZE(class_of) != n || PyList_GET_SIZE(work) != n || PyList_GET_SIZE(frees) != nt ||
        PyList_GET_SIZE(topic_classes) != nt || n == 0)
        Py_RETURN_NONE;
    PyObject *held[] = {ordered, frees, topic_classes, class_of, counts_in, work, holders};
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++)
        Py_INCREF(held[k]);
    int status = 0;
    Py_ssize_t nclasses = 0, max_whole = 0, max_classes = 0;
    Py_ssize_t *counts = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *classes = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *version = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    Py_ssize_t *taken = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *lengths = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *starts = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_hash_t *hashes = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_hash_t));
    PyObject **member_ints = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    PyObject **singles = NULL; /* {p} for the partitions of whole topics, made once */
    heap_t *heaps = NULL, heads = {NULL, 0, 0};
    PyObject *answer = NULL;
    if (!counts || !classes || !version || !taken || !lengths || !starts || !hashes || !member_ints) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if ((status = read_sizes(counts_in, counts, PY_SSIZE_T_MAX)) != 0 ||
        (status = read_sizes(class_of, classes, n)) != 0)
        goto finish;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (classes[i] >= nclasses)
            nclasses = classes[i] + 1;
        if (!PyDict_CheckExact(PyList_GET_ITEM(work, i))) {
            status = 1;
            goto finish;
        }
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *subscribers = PyList_GET_ITEM(topic_classes, t), *free = PyList_GET_ITEM(frees, t);
        if (!PyList_CheckExact(subscribers) || PyList_GET_SIZE(subscribers) == 0) {
            status = 1;
            goto finish;
        }
        if (PyList_GET_SIZE(subscribers) > max_classes)
            max_classes = PyList_GET_SIZE(subscribers);
        if (!plain_classes(subscribers, nclasses)) {
            status = 1;
            goto finish;
        }
        if (PyList_CheckExact(free)) {
            lengths[t] = PyList_GET_SIZE(free);
            starts[t] = -1;
        }
        else if (PyRange_Check(free)) {
            /* A whole topic: range(count). */
            PyObject *start = PyObject_GetAttrString(free, "start"), *step = PyObject_GetAttrString(free, "step");
            int plain = start && step && PyLong_CheckExact(start) && PyLong_CheckExact(step) &&
                        PyLong_AsSsize_t(step) == 1 && (starts[t] = PyLong_AsSsize_t(start)) == 0;
            Py_XDECREF(start);
            Py_XDECREF(step);
            lengths[t] = plain ? PyObject_Length(free) : -1;
            if (lengths[t] < 0 || lengths[t] > MAX_PARTITIONS) {
                PyErr_Clear();
                status = 1;
                goto finish;
            }
            if (lengths[t] > max_whole)
                max_whole = lengths[t];
        }
        else {
            status = 1;
            goto finish;
        }
    }
    /* The input is taken: from here on the work dicts and holders change. */
    if (hash_each(ordered, nt, hashes) < 0) {
        status = -1;
        goto finish;
    }
    heaps = PyMem_Calloc((size_t)nclasses, sizeof(heap_t));
    singles = PyMem_Calloc((size_t)max_whole + 1, sizeof(PyObject *));
    heads.items = PyMem_Malloc((size_t)(max_classes + 1) * sizeof(heap_entry_t));
    heads.cap = max_classes + 1;
    if (!heaps || !singles || !heads.items) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if (fill_class_heaps(heaps, classes, counts, n) < 0) {
        status = -1;
        goto finish;
    }

    for (Py_ssize_t t = 0; t < nt; t++) {
        Py_ssize_t left = lengths[t];
        if (left == 0)
            continue;
        PyObject *topic = PyList_GET_ITEM(ordered, t), *subscribers = PyList_GET_ITEM(topic_classes, t);
        PyObject *free = PyList_GET_ITEM(frees, t);
        Py_hash_t hash = hashes[t];
        /* The topic's subscriber classes by their least loaded member. */
        heads.size = 0;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(subscribers); k++) {
            Py_ssize_t c = PyLong_AsSsize_t(PyList_GET_ITEM(subscribers, k));
            heap_settle(&heaps[c], version);
            if (heaps[c].size == 0) /* every member of a class has a live entry: not reached */
                continue;
            heap_entry_t e = heaps[c].items[0];
            e.cls = c;
            heap_push(&heads, e); /* within its capacity */
        }
        Py_ssize_t ntaken = 0, level_sum = 0;
        while (heads.size > 0) {
            heap_entry_t e = heads.items[0];
            if (ntaken * (e.count + 1) - level_sum >= left)
                break;
            taken[ntaken++] = e.member;
            level_sum += e.count;
            heap_t *h = &heaps[e.cls];
            heap_pop(h);
            heap_settle(h, version);
            if (h->size > 0) {
                heap_entry_t next = h->items[0];
                next.cls = e.cls;
                heads.items[0] = next;
                heap_down(&heads, 0);
            }
            else
                heap_pop(&heads);
        }
        if (ntaken == 0)
            continue;
        Py_ssize_t level = (level_sum + left) / ntaken, plus_one = (level_sum + left) % ntaken;
        PyObject *members = _PyDict_GetItem_KnownHash(holders, topic, hash);
        if (members == NULL) {
            if (PyErr_Occurred() || (members = PySet_New(NULL)) == NULL) {
                status = -1;
                goto finish;
            }
            int failed = _PyDict_SetItem_KnownHash(holders, topic, members, hash);
            Py_DECREF(members); /* holders keeps it */
            if (failed < 0) {
                status = -1;
                goto finish;
            }
        }
        Py_INCREF(members);
        Py_ssize_t pos = 0;
        for (Py_ssize_t rank = 0; rank < ntaken && status == 0; rank++) {
            Py_ssize_t member = taken[rank], gain = level + (rank < plus_one) - counts[member];
            PyObject *got = NULL, *whole_set = NULL;
            if (starts[t] == 0 && gain == 1) {
                if (singles[pos] == NULL)
                    singles[pos] = frozenset_of(NULL, pos, 1);
                got = Py_XNewRef(singles[pos]);
            }
            else if (starts[t] == 0)
                got = frozenset_of(NULL, pos, gain);
            else {
                PyObject *slice = PyList_GetSlice(free, pos, pos + gain);
                got = slice ? PyFrozenSet_New(slice) : NULL;
                Py_XDECREF(slice);
            }
            pos += gain;
            if (member_ints[member] == NULL)
                member_ints[member] = PyLong_FromSsize_t(member);
            PyObject *dict = PyList_GET_ITEM(work, member), *key = member_ints[member];
            int holds = got && key ? PySet_Contains(members, key) : -1;
            if (holds == 1) {
                PyObject *old = _PyDict_GetItem_KnownHash(dict, topic, hash);
                if (old == NULL && !PyErr_Occurred())
                    PyErr_SetObject(PyExc_KeyError, topic);
                whole_set = old ? PyNumber_Or(old, got) : NULL;
                if (whole_set == NULL || _PyDict_SetItem_KnownHash(dict, topic, whole_set, hash) < 0)
                    status = -1;
            }
            else if (holds == 0) {
                if (_PyDict_SetItem_KnownHash(dict, topic, got, hash) < 0 || PySet_Add(members, key) < 0)
                    status = -1;
            }
            else
                status = -1;
            Py_XDECREF(got);
            Py_XDECREF(whole_set);
            counts[member] += gain;
            version[member]++;
            if (status == 0 &&
                heap_push(&heaps[classes[member]], (heap_entry_t){counts[member], member, version[member], 0}) < 0)
                status = -1;
        }
        Py_DECREF(members);
        if (status != 0)
            goto finish;
    }
    answer = PyList_New(n);
    if (answer == NULL) {
        status = -1;
        goto finish;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyLong_FromSsize_t(counts[i]);
        if (value == NULL) {
            status = -1;
            goto finish;
        }
        PyList_SET_ITEM(answer, i, value);
    }
finish:
    free_class_heaps(heaps, nclasses);
    if (singles != NULL)
        for (Py_ssize_t p = 0; p < max_whole; p++)
            Py_XDECREF(singles[p]);
    if (member_ints != NULL)
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(member_ints[i]);
    PyMem_Free(singles);
    PyMem_Free(heads.items);
    PyMem_Free(member_ints);
    PyMem_Free(counts);
    PyMem_Free(classes);
    PyMem_Free(version);
    PyMem_Free(taken);
    PyMem_Free(lengths);
    PyMem_Free(starts);
    PyMem_Free(hashes);
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++)
        Py_DECREF(held[k]);
    if (status != 0) {
        Py_XDECREF(answer);
        return status < 0 ? NULL : Py_NewRef(Py_None);
    }
    return answer;
}

/* A member's partitions of the topic being balanced, and the order it gives them away in. */
typedef struct {
    Py_ssize_t member;
    Py_ssize_t *parts, size, cap;
    Py_ssize_t *order, ordered; /* order[0 .. ordered): the next to give is the last */
    Py_ssize_t order_cap;
} live_t;

static int
grow(Py_ssize_t **items, Py_ssize_t *cap, Py_ssize_t need)
{
    if (need <= *cap)
        return 0;
    Py_ssize_t size = *cap ? *cap : 8;
    while (size < need)
        size *= 2;
    Py_ssize_t *bigger = PyMem_Realloc(*items, (size_t)size * sizeof(Py_ssize_t));
    if (bigger == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *items = bigger;
    *cap = size;
    return 0;
}

/* Reads a frozenset of partitions (exact ints: the compiled keep and deal made or checked them) into `l`. */
static int
read_live(live_t *l, PyObject *parts)
{
    l->size = 0;
    if (parts == NULL)
        return 0;
    if (!PyAnySet_Check(parts)) {
        PyErr_SetString(PyExc_TypeError, "a member's partitions are not a set");
        return -1;
    }
    if (grow(&l->parts, &l->cap, PySet_GET_SIZE(parts)) < 0)
        return -1;
    Py_ssize_t pos = 0;
    PyObject *item;
    Py_hash_t hash;
    while (_PySet_NextEntry(parts, &pos, &item, &hash)) {
        Py_ssize_t p = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        if (p < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a partition is not an int");
            return -1;
        }
        l->parts[l->size++] = p;
    }
    return 0;
}

static int
compare_ssize(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return x < y ? -1 : x > y;
}

/* `_Heterogeneous.balance_topic`'s giving order: the partitions the member held when the assignment started
 * ascending, then the others ascending; the last is given first. */
static int
order_live(live_t *l, PyObject *own)
{
    if (grow(&l->order, &l->order_cap, l->size) < 0)
        return -1;
    Py_ssize_t kept = 0, moved = l->size;
    for (Py_ssize_t k = 0; k < l->size; k++) {
        int held = 0;
        if (own != NULL) {
            PyObject *p = PyLong_FromSsize_t(l->parts[k]);
            held = p ? PySequence_Contains(own, p) : -1;
            Py_XDECREF(p);
            if (held < 0)
                return -1;
        }
        if (held)
            l->order[kept++] = l->parts[k];
        else
            l->order[--moved] = l->parts[k];
    }
    qsort(l->order, (size_t)kept, sizeof(Py_ssize_t), compare_ssize);
    qsort(l->order + kept, (size_t)(l->size - kept), sizeof(Py_ssize_t), compare_ssize);
    l->ordered = l->size;
    return 0;
}

typedef struct {
    Py_ssize_t n, nclasses;
    Py_ssize_t *counts, *classes, *version, *class_max;
    heap_t *heaps;
    PyObject *work, *initial;
    PyObject **member_ints;
    Py_ssize_t *slot_of; /* member -> index in lives, -1 when not touched in this topic */
    live_t *lives;
    Py_ssize_t nlives;
    heap_t takers, givers;
} balancer_t;

static PyObject *
member_int(balancer_t *s, Py_ssize_t member)
{
    if (s->member_ints[member] == NULL)
        s->member_ints[member] = PyLong_FromSsize_t(member);
    return s->member_ints[member];
}

static int
touch_member(balancer_t *s, Py_ssize_t member)
{
    s->version[member]++;
    return heap_push(&s->heaps[s->classes[member]],
                     (heap_entry_t){s->counts[member], member, s->version[member], s->classes[member]});
}

/* The member's live partitions of the topic, read from its work dict on first touch. */
static live_t *
live_of(balancer_t *s, Py_ssize_t member, PyObject *topic, Py_hash_t hash)
{
    if (s->slot_of[member] >= 0)
        return &s->lives[s->slot_of[member]];
    live_t *l = &s->lives[s->nlives];
    l->member = member;
    l->ordered = 0;
    PyObject *parts = _PyDict_GetItem_KnownHash(PyList_GET_ITEM(s->work, member), topic, hash);
    if (parts == NULL && PyErr_Occurred())
        return NULL;
    if (read_live(l, parts) < 0)
        return NULL;
    s->slot_of[member] = s->nlives++;
    return l;
}

/* Givers come largest (count, member) first: Python's heap of (-count, -member). */
static void
giver_key(heap_entry_t *e, Py_ssize_t count, Py_ssize_t member)
{
    e->count = -count;
    e->member = -member;
    e->version = 0;
    e->cls = 0;
}

/* `_Heterogeneous.balance_topic`: the number of moves, or -1 on error. */
static Py_ssize_t
balance_one(balancer_t *s, PyObject *topic, Py_hash_t hash, PyObject *topic_classes, PyObject *holders)
{
    PyObject *members = _PyDict_GetItem_KnownHash(holders, topic, hash);
    if (members == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PySet_CheckExact(members)) {
        PyErr_SetString(PyExc_TypeError, "a topic's holders are not a set");
        return -1;
    }
    if (PySet_GET_SIZE(members) == 0)
        return 0;
    Py_INCREF(members);
    Py_ssize_t moves = 0, result = -1;
    s->takers.size = 0;
    s->givers.size = 0;
    s->nlives = 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(topic_classes); k++) {
        Py_ssize_t c = PyLong_AsSsize_t(PyList_GET_ITEM(topic_classes, k));
        heap_settle(&s->heaps[c], s->version);
        heap_entry_t e = s->heaps[c].items[0];
        e.cls = c;
        if (heap_push(&s->takers, e) < 0)
            goto done;
    }
    {
        Py_ssize_t pos = 0;
        PyObject *item;
        Py_hash_t item_hash;
        while (_PySet_NextEntry(members, &pos, &item, &item_hash)) {
            heap_entry_t e;
            giver_key(&e, s->counts[PyLong_AsSsize_t(item)], PyLong_AsSsize_t(item));
            if (heap_push(&s->givers, e) < 0)
                goto done;
        }
    }
    while (s->givers.size > 0) {
        Py_ssize_t giver = -s->givers.items[0].member, giver_count = -s->givers.items[0].count;
        PyObject *giver_int = member_int(s, giver);
        if (giver_int == NULL)
            goto done;
        int holds = PySet_Contains(members, giver_int);
        if (holds < 0)
            goto done;
        if (s->counts[giver] != giver_count || !holds) {
            heap_pop(&s->givers);
            continue;
        }
        while (s->version[s->takers.items[0].member] != s->takers.items[0].version) {
            Py_ssize_t c = s->takers.items[0].cls;
            heap_settle(&s->heaps[c], s->version);
            heap_entry_t e = s->heaps[c].items[0];
            e.cls = c;
            s->takers.items[0] = e;
            heap_down(&s->takers, 0);
        }
        Py_ssize_t low = s->takers.items[0].count, taker = s->takers.items[0].member;
        if (giver_count - low <= 1)
            break;

        live_t *given = live_of(s, giver, topic, hash);
        if (given == NULL)
            goto done;
        if (given->ordered == 0) {
            PyObject *start = PyList_GET_ITEM(s->initial, giver), *own = NULL;
            if (PyDict_CheckExact(start)) {
                own = _PyDict_GetItem_KnownHash(start, topic, hash);
                if (own == NULL && PyErr_Occurred())
                    goto done;
            }
            Py_XINCREF(own);
            int failed = order_live(given, own);
            Py_XDECREF(own);
            if (failed < 0)
                goto done;
        }
        Py_ssize_t partition = given->order[--given->ordered];
        for (Py_ssize_t k = 0; k < given->size; k++)
            if (given->parts[k] == partition) {
                given->parts[k] = given->parts[--given->size];
                break;
            }
        if (given->size == 0) {
            if (PySet_Discard(members, giver_int) < 0)
                goto done;
            given->ordered = 0;
        }
        live_t *received = live_of(s, taker, topic, hash);
        PyObject *taker_int = member_int(s, taker);
        if (received == NULL || taker_int == NULL || grow(&received->parts, &received->cap, received->size + 1) < 0)
            goto done;
        received->parts[received->size++] = partition;
        if (PySet_Add(members, taker_int) < 0)
            goto done;

        s->counts[giver]--;
        s->counts[taker]++;
        if (touch_member(s, giver) < 0 || touch_member(s, taker) < 0 ||
            heap_push(&s->takers, (heap_entry_t){s->counts[giver], giver, s->version[giver], s->classes[giver]}) < 0)
            goto done;
        heap_pop(&s->givers);
        holds = PySet_Contains(members, giver_int);
        if (holds < 0)
            goto done;
        heap_entry_t e;
        if (holds) {
            giver_key(&e, s->counts[giver], giver);
            if (heap_push(&s->givers, e) < 0)
                goto done;
        }
        giver_key(&e, s->counts[taker], taker);
        if (heap_push(&s->givers, e) < 0)
            goto done;
        if (s->counts[taker] > s->class_max[s->classes[taker]])
            s->class_max[s->classes[taker]] = s->counts[taker];
        moves++;
    }
    result = moves;
done:
    for (Py_ssize_t k = 0; k < s->nlives; k++) {
        live_t *l = &s->lives[k];
        s->slot_of[l->member] = -1;
        if (result < 0)
            continue;
        PyObject *dict = PyList_GET_ITEM(s->work, l->member);
        if (l->size > 0) {
            PyObject *parts = frozenset_of(l->parts, 0, l->size);
            if (parts == NULL || _PyDict_SetItem_KnownHash(dict, topic, parts, hash) < 0)
                result = -1;
            Py_XDECREF(parts);
        }
        else if (_PyDict_DelItem_KnownHash(dict, topic, hash) < 0)
            result = -1;
    }
    Py_DECREF(members);
    return result;
}

/* balance(candidates, topic_classes, class_of, counts, work, holders, initial) -> the members' new counts, or
 * None. `_Heterogeneous.balance` over `candidates` (the topics with two subscribers or more, in the order
 * dealt), each with its subscriber classes; work and holders change as the Python steps change them. Taken
 * only after the compiled keep and deal: every partition is then an int. */
static PyObject *
hetero_balance(PyObject *module, PyObject *args)
{
    PyObject *candidates, *topic_classes, *class_of, *counts_in, *work, *holders, *initial;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!:balance", &PyList_Type, &candidates, &PyList_Type, &topic_classes,
                          &PyList_Type, &class_of, &PyList_Type, &counts_in, &PyList_Type, &work, &PyDict_Type,
                          &holders, &PyList_Type, &initial))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(counts_in), nt = PyList_GET_SIZE(candidates);
    if (PyList_GET_SIZE(class_of) != n || PyList_GET_SIZE(work) != n || PyList_GET_SIZE(initial) != n ||
        PyList_GET_SIZE(topic_classes) != nt || n == 0)
        Py_RETURN_NONE;
    PyObject *held[] = {candidates, topic_classes, class_of, counts_in, work, holders, initial};
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++)
        Py_INCREF(held[k]);
    int status = 0;
    balancer_t s;
    memset(&s, 0, sizeof(s));
    s.n = n;
    s.work = work;
    s.initial = initial;
    s.counts = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.classes = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.version = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    s.slot_of = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.lives = PyMem_Calloc((size_t)n, sizeof(live_t));
    s.member_ints = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    Py_hash_t *hashes = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_hash_t));
    PyObject *answer = NULL;
    if (!s.counts || !s.classes || !s.version || !s.slot_of || !s.lives || !s.member_ints || !hashes) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if ((status = read_sizes(counts_in, s.counts, PY_SSIZE_T_MAX)) != 0 ||
        (status = read_sizes(class_of, s.classes, n)) != 0)
        goto finish;
    for (Py_ssize_t i = 0; i < n; i++) {
        s.slot_of[i] = -1;
        if (s.classes[i] >= s.nclasses)
            s.nclasses = s.classes[i] + 1;
        PyObject *start = PyList_GET_ITEM(initial, i);
        if (!PyDict_CheckExact(PyList_GET_ITEM(work, i)) ||
            (!PyDict_CheckExact(start) && PyObject_Length(start) != 0)) {
            PyErr_Clear();
            status = 1;
            goto finish;
        }
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *subscribers = PyList_GET_ITEM(topic_classes, t);
        if (!PyList_CheckExact(subscribers) || PyList_GET_SIZE(subscribers) == 0) {
            status = 1;
            goto finish;
        }
        if (!plain_classes(subscribers, s.nclasses)) {
            status = 1;
            goto finish;
        }
    }
    if (hash_each(candidates, nt, hashes) < 0) {
        status = -1;
        goto finish;
    }
    s.heaps = PyMem_Calloc((size_t)s.nclasses, sizeof(heap_t));
    s.class_max = PyMem_Malloc((size_t)s.nclasses * sizeof(Py_ssize_t));
    if (!s.heaps || !s.class_max) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if (fill_class_heaps(s.heaps, s.classes, s.counts, n) < 0) {
        status = -1;
        goto finish;
    }
    /* Topic after topic, round and round, until a whole round moves nothing. */
    Py_ssize_t quiet = 0, index = 0;
    while (quiet < nt) {
        if (index == 0) {
            for (Py_ssize_t c = 0; c < s.nclasses; c++)
                s.class_max[c] = PY_SSIZE_T_MIN;
            for (Py_ssize_t i = 0; i < n; i++)
                if (s.counts[i] > s.class_max[s.classes[i]])
                    s.class_max[s.classes[i]] = s.counts[i];
        }
        Py_ssize_t t = index;
        index = (index + 1) % nt;
        PyObject *subscribers = PyList_GET_ITEM(topic_classes, t);
        Py_ssize_t low = PY_SSIZE_T_MAX, high = PY_SSIZE_T_MIN;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(subscribers); k++) {
            Py_ssize_t c = PyLong_AsSsize_t(PyList_GET_ITEM(subscribers, k));
            heap_settle(&s.heaps[c], s.version);
            if (s.heaps[c].items[0].count < low)
                low = s.heaps[c].items[0].count;
            if (s.class_max[c] > high)
                high = s.class_max[c];
        }
        Py_ssize_t moves = 0;
        if (high - low > 1) {
            moves = balance_one(&s, PyList_GET_ITEM(candidates, t), hashes[t], subscribers, holders);
            if (moves < 0) {
                status = -1;
                goto finish;
            }
        }
        quiet = moves ? 1 : quiet + 1;
    }
    answer = PyList_New(n);
    if (answer == NULL) {
        status = -1;
        goto finish;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyLong_FromSsize_t(s.counts[i]);
        if (value == NULL) {
            status = -1;
            goto finish;
        }
        PyList_SET_ITEM(answer, i, value);
    }
finish:
    free_class_heaps(s.heaps, s.nclasses);
    if (s.lives != NULL)
        for (Py_ssize_t i = 0; i < n; i++) {
            PyMem_Free(s.lives[i].parts);
            PyMem_Free(s.lives[i].order);
        }
    if (s.member_ints != NULL)
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(s.member_ints[i]);
    PyMem_Free(s.class_max);
    PyMem_Free(s.lives);
    PyMem_Free(s.member_ints);
    PyMem_Free(s.counts);
    PyMem_Free(s.classes);
    PyMem_Free(s.version);
    PyMem_Free(s.slot_of);
    PyMem_Free(s.takers.items);
    PyMem_Free(s.givers.items);
    PyMem_Free(hashes);
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++)
        Py_DECREF(held[k]);
    if (status != 0) {
        Py_XDECREF(answer);
        return status < 0 ? NULL : Py_NewRef(Py_None);
    }
    return answer;
}

#else

/* The private calls they need are not there: the Python steps run. */
static PyObject *
hetero_keep(PyObject *module, PyObject *args)
{
    Py_RETURN_NONE;
}

static PyObject *
hetero_deal(PyObject *module, PyObject *args)
{
    Py_RETURN_NONE;
}

static PyObject *
hetero_balance(PyObject *module, PyObject *args)
{
    Py_RETURN_NONE;
}

#endif

static PyMethodDef methods[] = {
    {"homogeneous", homogeneous, METH_VARARGS,
     "homogeneous(member_ids, assigned, topic_ids, counts, into) -> into, or None: not the plain case, the "
     "reference decides. topic_ids in Uuid order, all subscribed by every member."},
    {"alike", alike, METH_VARARGS,
     "alike(member_ids, specs, topics) -> the assignment, or None. Every spec has the same subscription object "
     "(a frozenset of known topics) and the group is assigned by the homogeneous builder; None when that is "
     "not so or the input is not the plain case."},
    {"keep", hetero_keep, METH_VARARGS,
     "keep(assigned, class_of, class_topics, topics) -> (work, counts, holders, free), or None: the heterogeneous "
     "builder's keep_all for the plain case (None: the Python step decides)."},
    {"deal", hetero_deal, METH_VARARGS,
     "deal(ordered, frees, topic_classes, class_of, counts, work, holders) -> the members' new counts, or None: "
     "the heterogeneous builder's deal for every topic of `ordered` in turn (None: nothing changed, the Python "
     "step runs)."},
    {"balance", hetero_balance, METH_VARARGS,
     "balance(candidates, topic_classes, class_of, counts, work, holders, initial) -> the members' new counts, "
     "or None: the heterogeneous builder's balance after the compiled keep and deal (None: nothing changed, the "
     "Python step runs)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_uniformc", "The uniform assignor's homogeneous builder and the heterogeneous builder's hot loops, compiled.", -1, methods,
};

PyMODINIT_FUNC
PyInit__uniformc(void)
{
    PyObject *uuid = PyImport_ImportModule("uuid");
    if (uuid == NULL)
        return NULL;
    PyObject *type = PyObject_GetAttrString(uuid, "UUID");
    Py_DECREF(uuid);
    if (type == NULL)
        return NULL;
    if (!PyType_Check(type)) {
        Py_DECREF(type);
        PyErr_SetString(PyExc_ImportError, "uuid.UUID is not a type");
        return NULL;
    }
    uuid_type = (PyTypeObject *)type; /* kept for the life of the process, as is int_name */
    int_name = PyUnicode_InternFromString("int");
    if (int_name == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
