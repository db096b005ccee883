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
 *
 * Only CPython's public C API is used, and the same code runs on every Python groupctl supports: no layout of
 * a set or dict is read, no private call made. What those bought was not hashing topic ids (uuid.UUID's
 * __hash__ is Python code, the costliest step here); the public ways to the same end are used instead: topic
 * ids are found by identity in pointer tables (by equality only for an id that is not the very object), dicts
 * are copied (PyDict_Copy keeps the stored hashes), and a new entry is made with dict.fromkeys from a
 * one-element frozenset (which reads the hash the set stores) and merged in (PyDict_Merge reads it too).
 *
 * Python code can still run in a call (a topic id's __hash__ or __eq__, a mapping's __len__) and change what
 * the caller handed over: every object used after such a call is held by a reference taken before it, the
 * lists handed in are copied before anything is read from them, and each current assignment read is kept as
 * it was read (its entries held); where such code ran, every assignment is checked to be what was read before
 * any result is handed back, the input being declined if not.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Plain C sizes keep the arrays small; a group beyond them goes to the reference. */
#define MAX_PARTITIONS 50000000
/* A dict of at most this many entries is searched for a topic id by identity before it is hashed. */
#define SCAN_LIMIT 8

static PyTypeObject *uuid_type; /* uuid.UUID */
static PyObject *int_name;      /* "int", interned: a Uuid's 128-bit value */
static PyObject *from_keys;     /* dict.fromkeys */
static PyObject *sixty_four;    /* 64: a Uuid's high half is its int >> 64 */

static size_t
pointer_hash(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 33;
    v *= (uintptr_t)0xff51afd7ed558ccdULL;
    v ^= v >> 29;
    return (size_t)v;
}

/* Whether hashing or comparing the object runs only the standard library's code: an exact uuid.UUID. Any
 * other topic id (a subclass, another type) may run code that changes the input, which is then checked. */
static int
trusted(PyObject *id)
{
    return Py_IS_TYPE(id, uuid_type);
}

/* --- topic ids by identity ------------------------------------------------------------------------------- */

/* The topics of a call, index -> id, and id -> index by identity (a pointer table: no Python code runs); an id
 * equal to one of them but another object is found through `by_value` (made on first need: then the ids'
 * __hash__ and __eq__ run). `singles[t]` is frozenset({id}), made on need, for new entries (`one_entry`). */
typedef struct {
    Py_ssize_t n, cap;
    PyObject **ids;     /* new references */
    PyObject **singles; /* new references, NULL until made */
    Py_ssize_t *slots;  /* index + 1, 0 when empty */
    size_t mask;
    PyObject *by_value;
    int untrusted; /* Python code other than uuid.UUID's may have run (see `trusted`) */
} topics_t;

static int
topics_init(topics_t *tt, Py_ssize_t cap)
{
    size_t size = 16;
    while (size < (size_t)cap * 2 + 1)
        size <<= 1;
    tt->mask = size - 1;
    tt->cap = cap;
    tt->slots = PyMem_Calloc(size, sizeof(Py_ssize_t));
    tt->ids = PyMem_Calloc((size_t)cap + 1, sizeof(PyObject *));
    tt->singles = PyMem_Calloc((size_t)cap + 1, sizeof(PyObject *));
    if (!tt->slots || !tt->ids || !tt->singles) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
topics_release(topics_t *tt)
{
    for (Py_ssize_t t = 0; t < tt->n; t++) {
        Py_XDECREF(tt->ids[t]);
        Py_XDECREF(tt->singles[t]);
    }
    Py_CLEAR(tt->by_value);
    PyMem_Free(tt->ids);
    PyMem_Free(tt->singles);
    PyMem_Free(tt->slots);
}

/* The index of the very object `key`, or -1. */
static Py_ssize_t
topics_same(const topics_t *tt, PyObject *key)
{
    size_t i = pointer_hash(key) & tt->mask;
    while (tt->slots[i]) {
        Py_ssize_t t = tt->slots[i] - 1;
        if (tt->ids[t] == key)
            return t;
        i = (i + 1) & tt->mask;
    }
    return -1;
}

/* Adds `id` (within the capacity; not already there as the same object): its index. */
static Py_ssize_t
topics_add(topics_t *tt, PyObject *id)
{
    Py_ssize_t t = tt->n++;
    tt->ids[t] = Py_NewRef(id);
    if (!trusted(id))
        tt->untrusted = 1;
    size_t i = pointer_hash(id) & tt->mask;
    while (tt->slots[i])
        i = (i + 1) & tt->mask;
    tt->slots[i] = t + 1;
    return t;
}

/* The index of the topic equal to `key`, -1 when none is, -2 on a Python error. */
static Py_ssize_t
topics_find(topics_t *tt, PyObject *key)
{
    Py_ssize_t t = topics_same(tt, key);
    if (t >= 0)
        return t;
    if (!trusted(key))
        tt->untrusted = 1;
    if (tt->by_value == NULL) {
        tt->by_value = PyDict_New();
        if (tt->by_value == NULL)
            return -2;
        for (Py_ssize_t k = 0; k < tt->n; k++) {
            PyObject *index = PyLong_FromSsize_t(k);
            int failed = index == NULL || PyDict_SetItem(tt->by_value, tt->ids[k], index) < 0;
            Py_XDECREF(index);
            if (failed)
                return -2;
        }
    }
    PyObject *found = PyDict_GetItemWithError(tt->by_value, key); /* borrowed from our own dict */
    if (found == NULL)
        return PyErr_Occurred() ? -2 : -1;
    return PyLong_AsSsize_t(found);
}

/* frozenset({ids[t]}) (borrowed), or NULL on error: the one hash of the id a call needs to make entries. */
static PyObject *
topics_single(topics_t *tt, Py_ssize_t t)
{
    if (tt->singles[t] == NULL) {
        PyObject *single = PyFrozenSet_New(NULL);
        if (single == NULL)
            return NULL;
        if (PySet_Add(single, tt->ids[t]) < 0) { /* a brand-new frozenset may be filled in */
            Py_DECREF(single);
            return NULL;
        }
        tt->singles[t] = single;
    }
    return tt->singles[t];
}

/* --- entries without hashing ----------------------------------------------------------------------------- */

/* {id: value}, a new dict, `single` being frozenset({id}): dict.fromkeys reads the hash the set stores. */
static PyObject *
one_entry(PyObject *single, PyObject *value)
{
    PyObject *args[2] = {single, value};
    return PyObject_Vectorcall(from_keys, args, 2, NULL);
}

/* dict[id] = value, `single` being frozenset({id}); an equal key already there stays, as with item
 * assignment. 0 or -1. */
static int
put_entry(PyObject *dict, PyObject *single, PyObject *value)
{
    PyObject *one = one_entry(single, value);
    if (one == NULL)
        return -1;
    int failed = PyDict_Merge(dict, one, 1);
    Py_DECREF(one);
    return failed;
}

/* The value `dict` holds for `id` (a new reference), or NULL: none (no exception set) or an error. A small
 * dict is searched for the very object first; otherwise, or when it is not there, the id is looked up. */
static PyObject *
value_of(PyObject *dict, PyObject *id)
{
    if (PyDict_GET_SIZE(dict) <= SCAN_LIMIT) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(dict, &pos, &key, &value))
            if (key == id)
                return Py_NewRef(value);
    }
    return Py_XNewRef(PyDict_GetItemWithError(dict, id));
}

/* --- current assignments as read ------------------------------------------------------------------------- */

/* An entry of a current assignment as read, both references held. */
typedef struct {
    PyObject *key, *parts;
    Py_ssize_t t;
} entry_t;

typedef struct {
    entry_t *items;
    Py_ssize_t size, cap;
} entries_t;

/* A new entry (its references taken), or NULL when out of memory. */
static entry_t *
entries_push(entries_t *e, PyObject *key, PyObject *parts)
{
    if (e->size == e->cap) {
        Py_ssize_t cap = e->cap ? e->cap * 2 : 64;
        entry_t *items = PyMem_Realloc(e->items, (size_t)cap * sizeof(entry_t));
        if (items == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        e->items = items;
        e->cap = cap;
    }
    entry_t *entry = &e->items[e->size++];
    entry->key = Py_NewRef(key);
    entry->parts = Py_NewRef(parts);
    entry->t = -1;
    return entry;
}

static void
entries_release(entries_t *e)
{
    for (Py_ssize_t k = 0; k < e->size; k++) {
        Py_DECREF(e->items[k].key);
        Py_DECREF(e->items[k].parts);
    }
    PyMem_Free(e->items);
}

/* Whether `dict` holds exactly the entries [first, first + count) of `e`, in that order, the same objects. */
static int
entries_match(const entries_t *e, Py_ssize_t first, Py_ssize_t count, PyObject *dict)
{
    if (PyDict_GET_SIZE(dict) != count)
        return 0;
    Py_ssize_t pos = 0, k = first;
    PyObject *key, *parts;
    while (PyDict_Next(dict, &pos, &key, &parts)) {
        if (k >= first + count || e->items[k].key != key || e->items[k].parts != parts)
            return 0;
        k++;
    }
    return k == first + count;
}

/* --- a frozenset's partitions, read once -------------------------------------------------------------- */

/* The partitions of each frozenset read in a call, by identity: the sets of a group's assignments are often
 * shared (a run of partitions dealt to members of several topics is one object), and each is iterated once. */
typedef struct {
    PyObject *set; /* a new reference */
    Py_ssize_t start, count;
} memo_slot_t;

typedef struct {
    memo_slot_t *slots;
    size_t mask;
    Py_ssize_t used;
    Py_ssize_t *items; /* the partitions of every set read, end to end */
    Py_ssize_t size, cap;
} memo_t;

static void
memo_release(memo_t *m)
{
    if (m->slots != NULL)
        for (size_t i = 0; i <= m->mask; i++)
            Py_XDECREF(m->slots[i].set);
    PyMem_Free(m->slots);
    PyMem_Free(m->items);
}

static int
memo_grow(memo_t *m)
{
    size_t size = m->slots == NULL ? 64 : (m->mask + 1) * 2;
    memo_slot_t *slots = PyMem_Calloc(size, sizeof(memo_slot_t));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (m->slots != NULL)
        for (size_t i = 0; i <= m->mask; i++) {
            if (m->slots[i].set == NULL)
                continue;
            size_t j = pointer_hash(m->slots[i].set) & (size - 1);
            while (slots[j].set != NULL)
                j = (j + 1) & (size - 1);
            slots[j] = m->slots[i];
        }
    PyMem_Free(m->slots);
    m->slots = slots;
    m->mask = size - 1;
    return 0;
}

/* The partitions of `parts`, a non-empty frozenset of exact ints from 0 to MAX_PARTITIONS - 1, as
 * m->items[*start, *start + *count); 0, 1 (not such a set) or -1. Iterating a frozenset of ints runs no
 * Python code. */
static int
memo_read(memo_t *m, PyObject *parts, Py_ssize_t *start, Py_ssize_t *count)
{
    if (!PyFrozenSet_CheckExact(parts) || PySet_GET_SIZE(parts) == 0)
        return 1;
    if ((m->used + 1) * 2 > (Py_ssize_t)(m->slots == NULL ? 0 : m->mask + 1) && memo_grow(m) < 0)
        return -1;
    size_t i = pointer_hash(parts) & m->mask;
    while (m->slots[i].set != NULL) {
        if (m->slots[i].set == parts) {
            *start = m->slots[i].start;
            *count = m->slots[i].count;
            return 0;
        }
        i = (i + 1) & m->mask;
    }
    Py_ssize_t size = PySet_GET_SIZE(parts), first = m->size;
    if (m->size + size > m->cap) {
        Py_ssize_t cap = m->cap ? m->cap : 256;
        while (cap < m->size + size)
            cap *= 2;
        Py_ssize_t *items = PyMem_Realloc(m->items, (size_t)cap * sizeof(Py_ssize_t));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        m->items = items;
        m->cap = cap;
    }
    PyObject *iter = PyObject_GetIter(parts), *item;
    if (iter == NULL)
        return -1;
    Py_ssize_t k = first;
    int status = 0;
    while ((item = PyIter_Next(iter)) != NULL) {
        Py_ssize_t p = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        Py_DECREF(item);
        if (p < 0 || p >= MAX_PARTITIONS || k >= first + size) {
            PyErr_Clear();
            status = 1;
            break;
        }
        m->items[k++] = p;
    }
    Py_DECREF(iter);
    if (status == 0 && PyErr_Occurred())
        return -1;
    if (status != 0 || k != first + size)
        return 1;
    m->size = k;
    m->slots[i] = (memo_slot_t){Py_NewRef(parts), first, size};
    m->used++;
    *start = first;
    *count = size;
    return 0;
}

/* --- the homogeneous builder ----------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t n, ntopics, total;
    PyObject *member_ids;  /* a list of str: our own copy */
    PyObject **assigned;   /* per member: its current assignment (new references) */
    PyObject **topic_ids;  /* the subscribed topics in Uuid order: tt.ids */
    topics_t tt;
    Py_ssize_t *counts, *offset, *owned, *held;
    int32_t *owner; /* per partition (topic offset + partition): member + 1, or 0 when free */
    entries_t read;  /* every entry of the current assignments, as read */
    Py_ssize_t *first, *nread; /* per member: its entries in `read` */
    memo_t memo;
    PyObject **result; /* new references, NULL until made */
    char *plus;
    int fresh; /* nobody owns anything */
    Py_ssize_t *listing; /* the order of members in the result when not the given one */
    int untrack;           /* results are left to reference counting alone (see run) */
    int foreign; /* some key of a current assignment is a topic id equal to, not the same object as, ours */
} builder_t;

/* The topic's index, -1 when it is not subscribed, -2 on a Python error. */
static Py_ssize_t
topic_of(builder_t *b, PyObject *key)
{
    Py_ssize_t t = topics_same(&b->tt, key);
    if (t >= 0)
        return t;
    if (!PyObject_TypeCheck(key, Py_TYPE(b->topic_ids[0])))
        return -1;
    b->foreign = 1;
    return topics_find(&b->tt, key);
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

/* Whether every current assignment that is not a dict is empty (1), else 0, or -1. Taken before any dict is
 * read: a mapping's __len__ may be Python code, which then runs before anything is read, not in between. The
 * entries of the dicts are counted, for the room to keep them as read. */
static int
empty_mappings(PyObject *const *assigned, Py_ssize_t n, entries_t *read)
{
    Py_ssize_t entries = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyDict_CheckExact(assigned[i])) {
            entries += PyDict_GET_SIZE(assigned[i]);
            continue;
        }
        Py_ssize_t size = PyObject_Length(assigned[i]);
        if (size != 0) {
            PyErr_Clear();
            return 0;
        }
    }
    if (entries > read->cap) {
        entry_t *items = PyMem_Realloc(read->items, (size_t)entries * sizeof(entry_t));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        read->items = items;
        read->cap = entries;
    }
    return 1;
}

/* Read member i's assignment into owner/held/owned; 0, 1 (not the plain case) or -1 (error). Each entry is
 * held (in b->read) before a topic id is looked up: its __hash__ or __eq__ may run and change the dict. */
static int
read_member(builder_t *b, Py_ssize_t i)
{
    PyObject *assignment = b->assigned[i];
    b->first[i] = b->read.size;
    if (!PyDict_CheckExact(assignment))
        return 0; /* empty: see empty_mappings */
    Py_ssize_t pos = 0, count = 0;
    PyObject *key, *parts;
    while (PyDict_Next(assignment, &pos, &key, &parts)) {
        entry_t *entry = entries_push(&b->read, key, parts);
        if (entry == NULL)
            return -1;
        b->nread[i]++;
        Py_ssize_t t = topic_of(b, entry->key);
        if (t == -2) {
            PyErr_Clear();
            return 1;
        }
        if (t < 0)
            return 1;
        entry->t = t;
        Py_ssize_t start, size;
        int status = memo_read(&b->memo, entry->parts, &start, &size);
        if (status != 0)
            return status;
        const Py_ssize_t *items = b->memo.items + start;
        int32_t *owner = b->owner + b->offset[t];
        for (Py_ssize_t k = 0; k < size; k++) {
            Py_ssize_t p = items[k];
            if (p >= b->counts[t] || owner[p])
                return 1;
            owner[p] = (int32_t)(i + 1);
        }
        count += size;
        b->owned[t] += size;
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

/* Member i's result dict, made on first need: a copy of its current assignment (PyDict_Copy keeps the stored
 * hashes). */
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

/* Keep the member's first `cap` partitions (topics in Uuid order, partitions ascending); the rest are freed.
 * The entries are those read (held in b->read), whatever the dict holds now. */
static int
trim(builder_t *b, Py_ssize_t member, Py_ssize_t cap)
{
    Py_ssize_t size = b->nread[member], first = b->first[member];
    const entry_t *read = b->read.items + first;
    Py_ssize_t *sorted = PyMem_Malloc((size_t)(size + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *ascending = NULL;
    PyObject *trimmed = NULL;
    if (sorted == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < size; k++) {
        Py_ssize_t j = k;
        while (j > 0 && read[sorted[j - 1]].t > read[k].t) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = k;
    }
    trimmed = PyDict_New();
    if (trimmed == NULL)
        goto error;
    Py_ssize_t room = cap;
    for (Py_ssize_t k = 0; k < size; k++) {
        const entry_t *entry = &read[sorted[k]];
        Py_ssize_t t = entry->t, count = PySet_GET_SIZE(entry->parts);
        if (room >= count) {
            if (PyDict_SetItem(trimmed, entry->key, entry->parts) < 0)
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
            int failed = PyDict_SetItem(trimmed, entry->key, kept);
            Py_DECREF(kept);
            if (failed < 0)
                goto error;
        }
        room = 0;
    }
    PyMem_Free(sorted);
    settle(b, trimmed);
    Py_XDECREF(b->result[member]);
    b->result[member] = trimmed;
    b->held[member] = cap;
    return 0;
error:
    PyMem_Free(sorted);
    PyMem_Free(ascending);
    Py_XDECREF(trimmed);
    return -1;
}

/* The value of topic t in a member's result (a new reference), or NULL: none, or an error. */
static PyObject *
result_value(builder_t *b, PyObject *result, Py_ssize_t t)
{
    if (PyDict_GET_SIZE(result) <= SCAN_LIMIT) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(result, &pos, &key, &value))
            if (key == b->topic_ids[t])
                return Py_NewRef(value);
        if (!b->foreign) /* every key is one of our topic ids */
            return NULL;
    }
    return Py_XNewRef(PyDict_GetItemWithError(result, b->topic_ids[t]));
}

/* Give member `member` the partitions `got` of topic t. */
static int
give(builder_t *b, Py_ssize_t member, Py_ssize_t t, PyObject *got)
{
    PyObject *single = topics_single(&b->tt, t);
    if (single == NULL)
        return -1;
    PyObject *result = b->result[member], *assignment = b->assigned[member];
    if (result == NULL && (!PyDict_CheckExact(assignment) || PyDict_GET_SIZE(assignment) == 0)) {
        result = b->result[member] = one_entry(single, got);
        if (result == NULL)
            return -1;
        settle(b, result);
        return 0;
    }
    result = result_of(b, member);
    if (result == NULL)
        return -1;
    PyObject *owned = result_value(b, result, t);
    int failed;
    if (owned == NULL) {
        if (PyErr_Occurred())
            return -1;
        failed = put_entry(result, single, got);
    }
    else {
        PyObject *both = PyNumber_Or(owned, got);
        Py_DECREF(owned);
        if (both == NULL)
            return -1;
        PyObject_GC_UnTrack(both);
        failed = put_entry(result, single, both);
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
    if (b->assigned != NULL)
        for (Py_ssize_t i = 0; i < b->n; i++)
            Py_XDECREF(b->assigned[i]);
    topics_release(&b->tt);
    entries_release(&b->read);
    memo_release(&b->memo);
    Py_XDECREF(b->member_ids);
    PyMem_Free(b->assigned);
    PyMem_Free(b->counts);
    PyMem_Free(b->offset);
    PyMem_Free(b->owned);
    PyMem_Free(b->held);
    PyMem_Free(b->owner);
    PyMem_Free(b->first);
    PyMem_Free(b->nread);
    PyMem_Free(b->result);
    PyMem_Free(b->plus);
    PyMem_Free(b->listing);
}

/* Allocates the arrays; the caller then fills assigned, the topics (in order) and counts. 0 or -1. */
static int
allocate(builder_t *b)
{
    Py_ssize_t n = b->n, nt = b->ntopics;
    if (topics_init(&b->tt, nt) < 0)
        return -1;
    b->topic_ids = b->tt.ids;
    b->assigned = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    b->counts = PyMem_Malloc((size_t)nt * sizeof(Py_ssize_t));
    b->offset = PyMem_Malloc((size_t)nt * sizeof(Py_ssize_t));
    b->owned = PyMem_Calloc((size_t)nt, sizeof(Py_ssize_t));
    b->held = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    b->first = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    b->nread = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    b->result = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    b->plus = PyMem_Calloc((size_t)n, 1);
    if (!b->assigned || !b->counts || !b->offset || !b->owned || !b->held || !b->first || !b->nread ||
        !b->result || !b->plus) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Checks the member ids and counts, lays out the partitions; 0, 1 (not the plain case) or -1. */
static int
lay_out(builder_t *b)
{
    Py_ssize_t n = b->n, nt = b->ntopics, total = 0;
    if (n > INT32_MAX - 1)
        return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyList_GET_ITEM(b->member_ids, i);
        /* PyUnicode_READY: a string may not be ready yet on 3.11, and always is from 3.12 (a no-op there). */
        if (!PyUnicode_CheckExact(id) || PyUnicode_READY(id) < 0 || PyUnicode_KIND(id) == PyUnicode_4BYTE_KIND) {
            PyErr_Clear();
            return 1;
        }
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        Py_ssize_t count = b->counts[t];
        if (count < 0 || count > MAX_PARTITIONS - total)
            return 1;
        b->offset[t] = total;
        total += count;
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
 * input is not the plain case, or NULL on error; `into` is changed only when the result is made. */
static PyObject *
run(builder_t *b, PyObject *into)
{
    int status = lay_out(b);
    if (status == 0) {
        int empty = empty_mappings(b->assigned, b->n, &b->read);
        status = empty < 0 ? -1 : !empty;
    }
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
    /* Where Python code that may change the input ran, every result is made, and every current assignment
     * checked to be what was read, before `into` is touched (no Python code runs in between); otherwise each
     * result is made as it is listed. */
    for (Py_ssize_t i = 0; status == 0 && b->tt.untrusted && i < b->n; i++)
        if (result_of(b, i) == NULL)
            status = -1;
    for (Py_ssize_t i = 0; status == 0 && b->tt.untrusted && i < b->n; i++)
        if (PyDict_CheckExact(b->assigned[i]) && !entries_match(&b->read, b->first[i], b->nread[i], b->assigned[i]))
            status = 1; /* it changed while it was read or assigned: the reference decides */
    if (status != 0)
        return status < 0 ? NULL : Py_NewRef(Py_None);
    if (into == NULL) {
        into = PyDict_New();
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
    /* Our own copy of the ids, and a reference to everything else read: Python code (a topic id's __hash__)
     * may run meanwhile and change the lists. */
    PyObject *answer = NULL;
    Py_INCREF(into);
    b.member_ids = PyList_GetSlice(member_ids, 0, b.n);
    if (b.member_ids == NULL || allocate(&b) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < b.n; i++)
        b.assigned[i] = Py_NewRef(PyList_GET_ITEM(assigned, i));
    for (Py_ssize_t t = 0; t < b.ntopics; t++) {
        PyObject *topic = PyList_GET_ITEM(topic_ids, t);
        if (topics_same(&b.tt, topic) >= 0) { /* the same topic twice: the reference decides */
            answer = Py_NewRef(Py_None);
            goto done;
        }
        topics_add(&b.tt, topic);
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
    Py_DECREF(into);
    return answer;
}

/* The member descriptor `name` of `type` (a new reference): a slot, read with no Python code (and an instance
 * cannot shadow it); NULL, with no exception set, when it is not one. */
static PyObject *
slot_of(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        Py_DECREF(descr);
        return NULL;
    }
    return descr;
}

typedef struct {
    uint64_t high, low; /* the Uuid's unsigned 128-bit value: ordered as Kafka orders Uuids */
    PyObject *topic;    /* a new reference */
    Py_ssize_t count;
} topic_entry_t;

static int
compare_topics(const void *a, const void *b)
{
    const topic_entry_t *x = a, *y = b;
    if (x->high != y->high)
        return x->high < y->high ? -1 : 1;
    return x->low < y->low ? -1 : x->low > y->low;
}

/* A Uuid's 128-bit value into `e`; 0, 1 (not an exact int from 0 to 2**128 - 1) or -1. */
static int
uuid_value(PyObject *topic, topic_entry_t *e)
{
    PyObject *value = PyObject_GetAttr(topic, int_name);
    if (value == NULL)
        return -1;
    int status = 1;
    if (PyLong_CheckExact(value)) {
        PyObject *high = PyNumber_Rshift(value, sixty_four);
        if (high == NULL)
            status = -1;
        else {
            e->high = PyLong_AsUnsignedLongLong(high); /* fails below 0 and from 2**128 */
            e->low = PyLong_AsUnsignedLongLongMask(value);
            status = PyErr_Occurred() ? 1 : 0;
            PyErr_Clear();
            Py_DECREF(high);
        }
    }
    Py_DECREF(value);
    return status;
}

static PyObject *
alike(PyObject *module, PyObject *args)
{
    PyObject *members, *topics;
    if (!PyArg_ParseTuple(args, "OO:alike", &members, &topics))
        return NULL;
    if (!PyDict_CheckExact(members) || PyDict_GET_SIZE(members) == 0 || !PyDict_CheckExact(topics))
        Py_RETURN_NONE;
    Py_ssize_t n = PyDict_GET_SIZE(members);
    builder_t b;
    memset(&b, 0, sizeof(b));
    b.n = n;
    PyObject *answer = NULL, *subscribed = NULL, *subscribed_slot = NULL, *assigned_slot = NULL, *iter = NULL;
    topic_entry_t *entries = NULL;
    Py_ssize_t nentries = 0;
    Py_INCREF(members);
    Py_INCREF(topics);
    /* Our own lists: Python code may run and change the caller's dict. */
    PyObject *specs = PyDict_Values(members);
    b.member_ids = PyDict_Keys(members);
    if (specs == NULL || b.member_ids == NULL)
        goto done;
    if (PyList_GET_SIZE(specs) != n || PyList_GET_SIZE(b.member_ids) != n)
        goto decline;
    /* The specs' slots (a dataclass with __slots__), read through their member descriptors. */
    PyTypeObject *type = Py_TYPE(PyList_GET_ITEM(specs, 0));
    if (PyType_GetSlot(type, Py_tp_getattro) != (void *)PyObject_GenericGetAttr)
        goto decline;
    subscribed_slot = slot_of(type, "subscribed_topic_ids");
    assigned_slot = slot_of(type, "assigned");
    if (subscribed_slot == NULL || assigned_slot == NULL)
        goto decline;
    descrgetfunc get = (descrgetfunc)PyType_GetSlot(&PyMemberDescr_Type, Py_tp_descr_get);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!Py_IS_TYPE(PyList_GET_ITEM(specs, i), type))
            goto decline;
    subscribed = get(subscribed_slot, PyList_GET_ITEM(specs, 0), (PyObject *)type);
    if (subscribed == NULL) {
        PyErr_Clear();
        goto decline;
    }
    if (!PyFrozenSet_CheckExact(subscribed) || PySet_GET_SIZE(subscribed) == 0)
        goto decline;
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *other = get(subscribed_slot, PyList_GET_ITEM(specs, i), (PyObject *)type);
        Py_XDECREF(other);
        if (other != subscribed) {
            PyErr_Clear();
            goto decline;
        }
    }

    b.ntopics = PySet_GET_SIZE(subscribed);
    if (allocate(&b) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        b.assigned[i] = get(assigned_slot, PyList_GET_ITEM(specs, i), (PyObject *)type);
        if (b.assigned[i] == NULL) {
            PyErr_Clear();
            goto decline;
        }
    }
    /* The topics in Uuid order, each with its count: found in `topics` by identity where they are the same
     * objects (no topic id is hashed then), else looked up. */
    entries = PyMem_Calloc((size_t)b.ntopics, sizeof(topic_entry_t));
    if (entries == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    iter = PyObject_GetIter(subscribed);
    if (iter == NULL)
        goto done;
    PyObject *topic;
    while ((topic = PyIter_Next(iter)) != NULL) {
        if (nentries == b.ntopics || !Py_IS_TYPE(topic, uuid_type)) {
            Py_DECREF(topic);
            goto decline;
        }
        topic_entry_t *e = &entries[nentries++];
        e->topic = topic;
        e->count = -1;
        int status = uuid_value(topic, e);
        if (status != 0) {
            if (status < 0)
                goto done;
            goto decline;
        }
    }
    if (PyErr_Occurred())
        goto done;
    if (nentries != b.ntopics)
        goto decline;
    qsort(entries, (size_t)nentries, sizeof(topic_entry_t), compare_topics);
    for (Py_ssize_t t = 0; t < nentries; t++)
        topics_add(&b.tt, entries[t].topic);
    Py_ssize_t matched = 0;
    if (PyDict_GET_SIZE(topics) <= 4 * b.ntopics) {
        Py_ssize_t pos = 0;
        PyObject *key, *count;
        while (PyDict_Next(topics, &pos, &key, &count)) {
            Py_ssize_t t = topics_same(&b.tt, key);
            if (t < 0)
                continue;
            entries[t].count = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
            if (entries[t].count < 0) {
                PyErr_Clear();
                goto decline;
            }
            matched++;
        }
    }
    for (Py_ssize_t t = 0; matched < b.ntopics && t < b.ntopics; t++) {
        if (entries[t].count >= 0)
            continue;
        PyObject *count = PyDict_GetItemWithError(topics, entries[t].topic); /* an exact uuid.UUID's hash */
        if (count == NULL) {
            if (PyErr_Occurred())
                goto done;
            goto decline; /* not a known topic: the reference resolves the subscription */
        }
        entries[t].count = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
        if (entries[t].count < 0) {
            PyErr_Clear();
            goto decline;
        }
    }
    for (Py_ssize_t t = 0; t < b.ntopics; t++)
        b.counts[t] = entries[t].count;
    answer = run(&b, NULL);
    goto done;
decline:
    answer = Py_NewRef(Py_None);
done:
    if (entries != NULL)
        for (Py_ssize_t t = 0; t < nentries; t++)
            Py_DECREF(entries[t].topic);
    PyMem_Free(entries);
    release(&b);
    Py_XDECREF(iter);
    Py_XDECREF(subscribed);
    Py_XDECREF(subscribed_slot);
    Py_XDECREF(assigned_slot);
    Py_XDECREF(specs);
    Py_DECREF(members);
    Py_DECREF(topics);
    return answer;
}

/* --- the heterogeneous builder's hot loops ---------------------------------------------------------------- */

/* `_Heterogeneous` in uniform.py stays the rule; three of its steps run here when the input is the plain case:
 * `keep_all` (every current assignment kept as it is: a hash of a topic id per assignment entry in Python),
 * the dealing of free partitions (a few heap operations and a frozenset per partition in Python), and the
 * balancing after them (a few heap operations and set changes per move). Each returns None, having changed
 * nothing, for input it does not take, and the Python step runs instead. */

/* counts[t] for each topic of `tt`, from `topics` (an exact dict, held by the caller): found by identity while
 * the dict is not much larger than the table, looked up otherwise; 0, 1 (a topic not there, or its count not
 * an exact int from 0) or -1. */
static int
topic_counts(topics_t *tt, PyObject *topics, Py_ssize_t *counts)
{
    Py_ssize_t matched = 0;
    for (Py_ssize_t t = 0; t < tt->n; t++)
        counts[t] = -1;
    if (PyDict_GET_SIZE(topics) <= 4 * tt->n) {
        Py_ssize_t pos = 0;
        PyObject *key, *count;
        while (PyDict_Next(topics, &pos, &key, &count)) {
            Py_ssize_t t = topics_same(tt, key);
            if (t < 0)
                continue;
            counts[t] = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
            if (counts[t] < 0) {
                PyErr_Clear();
                return 1;
            }
            matched++;
        }
    }
    for (Py_ssize_t t = 0; matched < tt->n && t < tt->n; t++) {
        if (counts[t] >= 0)
            continue;
        if (!trusted(tt->ids[t]))
            tt->untrusted = 1;
        PyObject *count = PyDict_GetItemWithError(topics, tt->ids[t]);
        if (count == NULL)
            return PyErr_Occurred() ? -1 : 1;
        counts[t] = PyLong_CheckExact(count) ? PyLong_AsSsize_t(count) : -1;
        if (counts[t] < 0) {
            PyErr_Clear();
            return 1;
        }
    }
    return 0;
}

/* Calls `each(context, c, item)` for every element of class_topics[c] in turn (frozensets of topic ids); stops
 * at the first that does not return 0 and returns that. */
static int
each_class_topic(PyObject *class_topics, int (*each)(void *, Py_ssize_t, PyObject *), void *context)
{
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(class_topics); c++) {
        PyObject *iter = PyObject_GetIter(PyList_GET_ITEM(class_topics, c)), *item;
        if (iter == NULL)
            return -1;
        int status = 0;
        while (status == 0 && (item = PyIter_Next(iter)) != NULL) {
            status = each(context, c, item);
            Py_DECREF(item);
        }
        Py_DECREF(iter);
        if (status != 0)
            return status;
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

static int
add_by_identity(void *context, Py_ssize_t c, PyObject *id)
{
    topics_t *tt = context;
    if (topics_same(tt, id) < 0)
        topics_add(tt, id);
    return 0;
}

static int
add_by_value(void *context, Py_ssize_t c, PyObject *id)
{
    topics_t *tt = context;
    Py_ssize_t t = topics_find(tt, id);
    if (t == -2)
        return -1;
    if (t >= 0)
        return 0;
    t = topics_add(tt, id);
    PyObject *index = PyLong_FromSsize_t(t);
    int failed = index == NULL || PyDict_SetItem(tt->by_value, id, index) < 0;
    Py_XDECREF(index);
    return failed ? -1 : 0;
}

typedef struct {
    topics_t *tt;
    char *subscribed;
} marks_t;

static int
mark_subscribed(void *context, Py_ssize_t c, PyObject *id)
{
    marks_t *m = context;
    Py_ssize_t t = topics_find(m->tt, id);
    if (t < 0)
        return t == -2 ? -1 : 1;
    m->subscribed[c * m->tt->n + t] = 1;
    return 0;
}

/* The union of the class subscriptions (each an exact frozenset), one entry per topic: by identity, unless
 * some topic id is equal to another that is not the same object (the union, made from the ids' stored
 * hashes, is smaller then), when they are told apart by equality; 0, 1 (not the plain case) or -1. */
static int
table_build(topics_t *tt, PyObject *class_topics)
{
    Py_ssize_t cap = 0;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(class_topics); c++) {
        PyObject *subscribed = PyList_GET_ITEM(class_topics, c);
        if (!PyFrozenSet_CheckExact(subscribed))
            return 1;
        cap += PySet_GET_SIZE(subscribed);
    }
    if (topics_init(tt, cap) < 0)
        return -1;
    PyObject *all = PySet_New(NULL);
    if (all == NULL)
        return -1;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(class_topics); c++) {
        PyObject *grown = PyNumber_InPlaceOr(all, PyList_GET_ITEM(class_topics, c));
        if (grown == NULL) {
            Py_DECREF(all);
            return -1;
        }
        Py_DECREF(grown); /* `all` itself */
    }
    Py_ssize_t distinct = PySet_GET_SIZE(all);
    Py_DECREF(all);
    int status = each_class_topic(class_topics, add_by_identity, tt);
    if (status != 0 || tt->n == distinct)
        return status;
    /* Equal ids that are other objects: again, by equality. */
    for (Py_ssize_t t = 0; t < tt->n; t++)
        Py_CLEAR(tt->ids[t]);
    memset(tt->slots, 0, (tt->mask + 1) * sizeof(Py_ssize_t));
    tt->n = 0;
    tt->by_value = PyDict_New();
    if (tt->by_value == NULL)
        return -1;
    return each_class_topic(class_topics, add_by_value, tt);
}

/* A list's items, which Python code run later cannot change: our own copy. */
static PyObject *
list_copy(PyObject *list)
{
    return PyList_GetSlice(list, 0, PyList_GET_SIZE(list));
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
    if (PyList_GET_SIZE(class_of) != n || n > INT32_MAX - 1 || !PyDict_CheckExact(topics))
        Py_RETURN_NONE;
    /* Our own copies and references: Python code (a topic id's __eq__) may run meanwhile. */
    Py_INCREF(topics);
    assigned = list_copy(assigned);
    class_of = list_copy(class_of);
    class_topics = list_copy(class_topics);
    topics_t tt;
    memset(&tt, 0, sizeof(tt));
    entries_t read = {NULL, 0, 0};
    memo_t memo;
    memset(&memo, 0, sizeof(memo));
    Py_ssize_t *offset = NULL, *counts = NULL, *tcounts = NULL, *first = NULL, *nread = NULL;
    int32_t *owner = NULL;
    char *subscribed = NULL;
    int *classes = NULL;
    PyObject *answer = NULL, *work = NULL, *count_list = NULL, *holders = NULL, *free = NULL;
    int status = -1;
    if (assigned == NULL || class_of == NULL || class_topics == NULL)
        goto finish;
    status = table_build(&tt, class_topics);
    if (status != 0)
        goto finish;
    Py_ssize_t nt = tt.n, total = 0;
    if (nclasses > 0 && nt > 0 && (size_t)nclasses > ((size_t)1 << 28) / (size_t)nt) {
        status = 1;
        goto finish;
    }
    tcounts = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_ssize_t));
    offset = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_ssize_t));
    counts = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    first = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    nread = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    subscribed = PyMem_Calloc((size_t)(nclasses * nt) + 1, 1);
    classes = PyMem_Malloc((size_t)n * sizeof(int) + 1);
    if (!tcounts || !offset || !counts || !first || !nread || !subscribed || !classes) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if ((status = topic_counts(&tt, topics, tcounts)) != 0)
        goto finish;
    for (Py_ssize_t t = 0; t < nt; t++) {
        if (tcounts[t] > MAX_PARTITIONS - total) {
            status = 1;
            goto finish;
        }
        offset[t] = total;
        total += tcounts[t];
    }
    owner = PyMem_Calloc((size_t)total + 1, sizeof(int32_t));
    if (owner == NULL) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    marks_t marks = {&tt, subscribed};
    if ((status = each_class_topic(class_topics, mark_subscribed, &marks)) != 0)
        goto finish;
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
    int empty = empty_mappings(PySequence_Fast_ITEMS(assigned), n, &read);
    if (empty != 1) {
        status = empty < 0 ? -1 : 1;
        goto finish;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *assignment = PyList_GET_ITEM(assigned, i), *key, *parts;
        first[i] = read.size;
        if (!PyDict_CheckExact(assignment))
            continue; /* empty */
        Py_ssize_t pos = 0;
        while (PyDict_Next(assignment, &pos, &key, &parts)) {
            /* A topic id's __eq__ may run: the entry is held while it is read, and kept as read. */
            entry_t *entry = entries_push(&read, key, parts);
            if (entry == NULL) {
                status = -1;
                goto finish;
            }
            nread[i]++;
            Py_ssize_t t = topics_find(&tt, entry->key), start, size;
            if (t == -2) {
                status = -1;
                goto finish;
            }
            if (t < 0 || !subscribed[classes[i] * nt + t]) {
                status = 1;
                goto finish;
            }
            if ((status = memo_read(&memo, entry->parts, &start, &size)) != 0)
                goto finish;
            int32_t *topic_owner = owner + offset[t];
            for (Py_ssize_t k = 0; k < size; k++) {
                Py_ssize_t p = memo.items[start + k];
                if (p >= tcounts[t] || topic_owner[p]) {
                    status = 1;
                    goto finish;
                }
                topic_owner[p] = (int32_t)(i + 1);
            }
            counts[i] += size;
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
        if (tt.untrusted && PyDict_CheckExact(assignment) && !entries_match(&read, first[i], nread[i], assignment)) {
            status = 1; /* it changed while it was read: the Python step decides */
            goto finish;
        }
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        int32_t *topic_owner = owner + offset[t];
        PyObject *owners = NULL, *left = NULL, *single = NULL;
        Py_ssize_t held = 0;
        for (Py_ssize_t p = 0; p < tcounts[t]; p++)
            held += topic_owner[p] != 0;
        if (held == 0)
            continue;
        owners = PySet_New(NULL);
        left = PyList_New(tcounts[t] - held);
        single = topics_single(&tt, t);
        if (owners == NULL || left == NULL || single == NULL)
            goto topic_failed;
        Py_ssize_t k = 0;
        for (Py_ssize_t p = 0; p < tcounts[t]; p++) {
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
        if (put_entry(holders, single, owners) < 0 || put_entry(free, single, left) < 0)
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
    PyMem_Free(tcounts);
    PyMem_Free(offset);
    PyMem_Free(counts);
    PyMem_Free(first);
    PyMem_Free(nread);
    PyMem_Free(subscribed);
    PyMem_Free(classes);
    PyMem_Free(owner);
    entries_release(&read);
    memo_release(&memo);
    topics_release(&tt);
    Py_XDECREF(assigned);
    Py_XDECREF(class_of);
    Py_XDECREF(class_topics);
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

/* Each topic's subscriber classes (lists of exact ints naming one of `nclasses` classes, none empty) read into
 * items[first[t], first[t] + size[t]): Python code run later cannot change them. 0, 1 (not that) or -1. */
static int
read_classes(PyObject *topic_classes, Py_ssize_t nclasses, Py_ssize_t **items, Py_ssize_t *first, Py_ssize_t *size)
{
    Py_ssize_t nt = PyList_GET_SIZE(topic_classes), total = 0;
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *subscribers = PyList_GET_ITEM(topic_classes, t);
        if (!PyList_CheckExact(subscribers) || PyList_GET_SIZE(subscribers) == 0 ||
            !plain_classes(subscribers, nclasses))
            return 1;
        first[t] = total;
        size[t] = PyList_GET_SIZE(subscribers);
        total += size[t];
    }
    *items = PyMem_Malloc((size_t)(total + 1) * sizeof(Py_ssize_t));
    if (*items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t < nt; t++)
        for (Py_ssize_t k = 0; k < size[t]; k++)
            (*items)[first[t] + k] = PyLong_AsSsize_t(PyList_GET_ITEM(PyList_GET_ITEM(topic_classes, t), k));
    return 0;
}

/* frozenset({topic}) in singles[t] (borrowed), made on need, or NULL on error. */
static PyObject *
single_of(PyObject **singles, PyObject *topics, Py_ssize_t t)
{
    if (singles[t] == NULL) {
        PyObject *single = PyFrozenSet_New(NULL);
        if (single == NULL)
            return NULL;
        if (PySet_Add(single, PyList_GET_ITEM(topics, t)) < 0) {
            Py_DECREF(single);
            return NULL;
        }
        singles[t] = single;
    }
    return singles[t];
}

static void
release_objects(PyObject **objects, Py_ssize_t n)
{
    if (objects != NULL)
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(objects[i]);
    PyMem_Free(objects);
}

/* The members' work dicts (new references; exact dicts), or NULL: not that (*status 1) or an error. */
static PyObject **
work_dicts(PyObject *work, Py_ssize_t n, int *status)
{
    PyObject **dicts = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    if (dicts == NULL) {
        PyErr_NoMemory();
        *status = -1;
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *dict = PyList_GET_ITEM(work, i);
        if (!PyDict_CheckExact(dict)) {
            release_objects(dicts, n);
            *status = 1;
            return NULL;
        }
        dicts[i] = Py_NewRef(dict);
    }
    return dicts;
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
    /* Our own copies and references: Python code (a topic id's __hash__) may run meanwhile. */
    Py_INCREF(holders);
    ordered = list_copy(ordered);
    frees = list_copy(frees);
    topic_classes = list_copy(topic_classes);
    int status = 0;
    Py_ssize_t nclasses = 0, max_whole = 0, max_classes = 0, nfree = 0;
    Py_ssize_t *counts = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *classes = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *version = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    Py_ssize_t *taken = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *lengths = PyMem_Malloc((size_t)(nt + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *starts = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *free_first = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *sub_first = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *sub_size = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *sub_items = NULL, *free_items = NULL;
    PyObject **member_ints = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    PyObject **topic_singles = PyMem_Calloc((size_t)nt + 1, sizeof(PyObject *));
    PyObject **dicts = NULL;
    PyObject **singles = NULL; /* {p} for the partitions of whole topics, made once */
    heap_t *heaps = NULL, heads = {NULL, 0, 0};
    PyObject *answer = NULL;
    if (!ordered || !frees || !topic_classes) {
        status = -1;
        goto finish;
    }
    if (!counts || !classes || !version || !taken || !lengths || !starts || !free_first || !sub_first ||
        !sub_size || !member_ints || !topic_singles) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if ((status = read_sizes(counts_in, counts, PY_SSIZE_T_MAX)) != 0 ||
        (status = read_sizes(class_of, classes, n)) != 0)
        goto finish;
    for (Py_ssize_t i = 0; i < n; i++)
        if (classes[i] >= nclasses)
            nclasses = classes[i] + 1;
    if ((dicts = work_dicts(work, n, &status)) == NULL)
        goto finish;
    if ((status = read_classes(topic_classes, nclasses, &sub_items, sub_first, sub_size)) != 0)
        goto finish;
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *free = PyList_GET_ITEM(frees, t);
        if (sub_size[t] > max_classes)
            max_classes = sub_size[t];
        if (PyList_CheckExact(free)) {
            lengths[t] = PyList_GET_SIZE(free);
            starts[t] = -1;
            free_first[t] = nfree;
            nfree += lengths[t];
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
    /* The free partitions of lists, as exact ints from 0: the frozensets dealt are made from them. */
    free_items = PyMem_Malloc((size_t)(nfree + 1) * sizeof(Py_ssize_t));
    if (free_items == NULL) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    for (Py_ssize_t t = 0; t < nt; t++) {
        if (starts[t] == 0)
            continue;
        PyObject *free = PyList_GET_ITEM(frees, t);
        if (PyList_GET_SIZE(free) != lengths[t]) {
            status = 1;
            goto finish;
        }
        for (Py_ssize_t k = 0; k < lengths[t]; k++) {
            PyObject *item = PyList_GET_ITEM(free, k);
            Py_ssize_t p = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
            if (p < 0) {
                PyErr_Clear();
                status = 1;
                goto finish;
            }
            free_items[free_first[t] + k] = p;
        }
    }
    /* The input is taken: from here on the work dicts and holders change. */
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
        PyObject *topic = PyList_GET_ITEM(ordered, t);
        /* The topic's subscriber classes by their least loaded member. */
        heads.size = 0;
        for (Py_ssize_t k = 0; k < sub_size[t]; k++) {
            Py_ssize_t c = sub_items[sub_first[t] + k];
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
        PyObject *single = single_of(topic_singles, ordered, t);
        if (single == NULL) {
            status = -1;
            goto finish;
        }
        PyObject *members = Py_XNewRef(PyDict_GetItemWithError(holders, topic));
        if (members == NULL) {
            if (PyErr_Occurred() || (members = PySet_New(NULL)) == NULL || put_entry(holders, single, members) < 0) {
                Py_XDECREF(members);
                status = -1;
                goto finish;
            }
        }
        Py_ssize_t pos = 0;
        for (Py_ssize_t rank = 0; rank < ntaken && status == 0; rank++) {
            Py_ssize_t member = taken[rank], gain = level + (rank < plus_one) - counts[member];
            PyObject *got = NULL, *whole_set = NULL, *old = NULL;
            if (starts[t] == 0 && gain == 1) {
                if (singles[pos] == NULL)
                    singles[pos] = frozenset_of(NULL, pos, 1);
                got = Py_XNewRef(singles[pos]);
            }
            else if (starts[t] == 0)
                got = frozenset_of(NULL, pos, gain);
            else
                got = frozenset_of(free_items + free_first[t] + pos, 0, gain);
            pos += gain;
            if (member_ints[member] == NULL)
                member_ints[member] = PyLong_FromSsize_t(member);
            PyObject *dict = dicts[member], *key = member_ints[member];
            int holds = got && key ? PySet_Contains(members, key) : -1;
            if (holds == 1) {
                old = value_of(dict, topic);
                if (old == NULL && !PyErr_Occurred())
                    PyErr_SetObject(PyExc_KeyError, topic);
                whole_set = old ? PyNumber_Or(old, got) : NULL;
                if (whole_set == NULL || put_entry(dict, single, whole_set) < 0)
                    status = -1;
            }
            else if (holds == 0) {
                if (put_entry(dict, single, got) < 0 || PySet_Add(members, key) < 0)
                    status = -1;
            }
            else
                status = -1;
            Py_XDECREF(old);
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
    release_objects(member_ints, n);
    release_objects(topic_singles, nt);
    release_objects(dicts, n);
    PyMem_Free(singles);
    PyMem_Free(heads.items);
    PyMem_Free(counts);
    PyMem_Free(classes);
    PyMem_Free(version);
    PyMem_Free(taken);
    PyMem_Free(lengths);
    PyMem_Free(starts);
    PyMem_Free(free_first);
    PyMem_Free(sub_first);
    PyMem_Free(sub_size);
    PyMem_Free(sub_items);
    PyMem_Free(free_items);
    Py_XDECREF(ordered);
    Py_XDECREF(frees);
    Py_XDECREF(topic_classes);
    Py_DECREF(holders);
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
    PyObject *iter = PyObject_GetIter(parts), *item;
    if (iter == NULL)
        return -1;
    while ((item = PyIter_Next(iter)) != NULL) {
        Py_ssize_t p = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
        Py_DECREF(item);
        if (p < 0 || l->size >= l->cap) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a partition is not an int");
            Py_DECREF(iter);
            return -1;
        }
        l->parts[l->size++] = p;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
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
    PyObject **work, **initial; /* new references */
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


/* The member's live partitions of the topic, read from its work dict on first touch (nothing when it is not
 * one of the topic's holders). */
static live_t *
live_of(balancer_t *s, Py_ssize_t member, PyObject *topic, PyObject *holders)
{
    if (s->slot_of[member] >= 0)
        return &s->lives[s->slot_of[member]];
    live_t *l = &s->lives[s->nlives];
    l->member = member;
    l->ordered = 0;
    PyObject *key = member_int(s, member), *parts = NULL;
    if (key == NULL)
        return NULL;
    int holds = PySet_Contains(holders, key);
    if (holds < 0)
        return NULL;
    if (holds) {
        parts = value_of(s->work[member], topic);
        if (parts == NULL && PyErr_Occurred())
            return NULL;
    }
    int failed = read_live(l, parts);
    Py_XDECREF(parts);
    if (failed < 0)
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


/* `_Heterogeneous.balance_topic`: the number of moves, or -1 on error. `classes` are the topic's subscriber
 * classes, `single` is frozenset({topic}). */
static Py_ssize_t
balance_one(balancer_t *s, PyObject *topic, PyObject *single, const Py_ssize_t *classes, Py_ssize_t nclasses,
            PyObject *holders)
{
    PyObject *members = Py_XNewRef(PyDict_GetItemWithError(holders, topic));
    if (members == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PySet_CheckExact(members)) {
        Py_DECREF(members);
        PyErr_SetString(PyExc_TypeError, "a topic's holders are not a set");
        return -1;
    }
    if (PySet_GET_SIZE(members) == 0) {
        Py_DECREF(members);
        return 0;
    }
    Py_ssize_t moves = 0, result = -1;
    s->takers.size = 0;
    s->givers.size = 0;
    s->nlives = 0;
    for (Py_ssize_t k = 0; k < nclasses; k++) {
        Py_ssize_t c = classes[k];
        heap_settle(&s->heaps[c], s->version);
        heap_entry_t e = s->heaps[c].items[0];
        e.cls = c;
        if (heap_push(&s->takers, e) < 0)
            goto done;
    }
    {
        PyObject *iter = PyObject_GetIter(members), *item;
        if (iter == NULL)
            goto done;
        int failed = 0;
        while (!failed && (item = PyIter_Next(iter)) != NULL) {
            Py_ssize_t member = PyLong_CheckExact(item) ? PyLong_AsSsize_t(item) : -1;
            Py_DECREF(item);
            if (member < 0 || member >= s->n) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "a topic's holders are not member indexes");
                failed = 1;
                break;
            }
            heap_entry_t e;
            giver_key(&e, s->counts[member], member);
            failed = heap_push(&s->givers, e) < 0;
        }
        Py_DECREF(iter);
        if (failed || PyErr_Occurred())
            goto done;
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

        live_t *given = live_of(s, giver, topic, members);
        if (given == NULL)
            goto done;
        if (given->ordered == 0) {
            PyObject *start = s->initial[giver], *own = NULL;
            if (PyDict_CheckExact(start)) {
                own = value_of(start, topic);
                if (own == NULL && PyErr_Occurred())
                    goto done;
            }
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
        live_t *received = live_of(s, taker, topic, members);
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
        PyObject *dict = s->work[l->member];
        if (l->size > 0) {
            PyObject *parts = frozenset_of(l->parts, 0, l->size);
            if (parts == NULL || put_entry(dict, single, parts) < 0)
                result = -1;
            Py_XDECREF(parts);
        }
        else if (PyDict_DelItem(dict, topic) < 0)
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
    /* Our own copies and references: Python code (a topic id's __hash__) may run meanwhile. */
    Py_INCREF(holders);
    candidates = list_copy(candidates);
    int status = 0;
    balancer_t s;
    memset(&s, 0, sizeof(s));
    s.n = n;
    s.counts = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.classes = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.version = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    s.slot_of = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    s.lives = PyMem_Calloc((size_t)n, sizeof(live_t));
    s.member_ints = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    s.initial = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    Py_ssize_t *sub_first = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *sub_size = PyMem_Calloc((size_t)nt + 1, sizeof(Py_ssize_t));
    Py_ssize_t *sub_items = NULL;
    PyObject **topic_singles = PyMem_Calloc((size_t)nt + 1, sizeof(PyObject *));
    PyObject *answer = NULL;
    if (candidates == NULL) {
        status = -1;
        goto finish;
    }
    if (!s.counts || !s.classes || !s.version || !s.slot_of || !s.lives || !s.member_ints || !s.initial ||
        !sub_first || !sub_size || !topic_singles) {
        PyErr_NoMemory();
        status = -1;
        goto finish;
    }
    if ((status = read_sizes(counts_in, s.counts, PY_SSIZE_T_MAX)) != 0 ||
        (status = read_sizes(class_of, s.classes, n)) != 0)
        goto finish;
    if ((s.work = work_dicts(work, n, &status)) == NULL)
        goto finish;
    for (Py_ssize_t i = 0; i < n; i++) {
        s.slot_of[i] = -1;
        if (s.classes[i] >= s.nclasses)
            s.nclasses = s.classes[i] + 1;
        s.initial[i] = Py_NewRef(PyList_GET_ITEM(initial, i));
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyDict_CheckExact(s.initial[i]) && PyObject_Length(s.initial[i]) != 0) {
            PyErr_Clear();
            status = 1;
            goto finish;
        }
    if ((status = read_classes(topic_classes, s.nclasses, &sub_items, sub_first, sub_size)) != 0)
        goto finish;
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
        const Py_ssize_t *subscribers = sub_items + sub_first[t];
        Py_ssize_t low = PY_SSIZE_T_MAX, high = PY_SSIZE_T_MIN;
        for (Py_ssize_t k = 0; k < sub_size[t]; k++) {
            Py_ssize_t c = subscribers[k];
            heap_settle(&s.heaps[c], s.version);
            if (s.heaps[c].items[0].count < low)
                low = s.heaps[c].items[0].count;
            if (s.class_max[c] > high)
                high = s.class_max[c];
        }
        Py_ssize_t moves = 0;
        if (high - low > 1) {
            PyObject *single = single_of(topic_singles, candidates, t);
            moves = single == NULL ? -1
                                   : balance_one(&s, PyList_GET_ITEM(candidates, t), single, subscribers,
                                                 sub_size[t], holders);
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
    release_objects(s.member_ints, n);
    release_objects(s.work, n);
    release_objects(s.initial, n);
    release_objects(topic_singles, nt);
    PyMem_Free(s.class_max);
    PyMem_Free(s.lives);
    PyMem_Free(s.counts);
    PyMem_Free(s.classes);
    PyMem_Free(s.version);
    PyMem_Free(s.slot_of);
    PyMem_Free(s.takers.items);
    PyMem_Free(s.givers.items);
    PyMem_Free(sub_first);
    PyMem_Free(sub_size);
    PyMem_Free(sub_items);
    Py_XDECREF(candidates);
    Py_DECREF(holders);
    if (status != 0) {
        Py_XDECREF(answer);
        return status < 0 ? NULL : Py_NewRef(Py_None);
    }
    return answer;
}

static PyMethodDef methods[] = {
    {"homogeneous", homogeneous, METH_VARARGS,
     "homogeneous(member_ids, assigned, topic_ids, counts, into) -> into, or None: not the plain case, the "
     "reference decides. topic_ids in Uuid order, all subscribed by every member."},
    {"alike", alike, METH_VARARGS,
     "alike(members, topics) -> the assignment, or None. members: a dict of member id -> spec. Every spec has the "
     "same subscription object "
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
    PyModuleDef_HEAD_INIT, "_uniformc",
    "The uniform assignor's homogeneous builder and the heterogeneous builder's hot loops, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
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
    /* Kept for the life of the process. */
    uuid_type = (PyTypeObject *)type;
    int_name = PyUnicode_InternFromString("int");
    from_keys = PyObject_GetAttrString((PyObject *)&PyDict_Type, "fromkeys");
    sixty_four = PyLong_FromLong(64);
    if (int_name == NULL || from_keys == NULL || sixty_four == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
