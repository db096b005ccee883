/* The compiled record loop behind `groupctl.log.fast`: the per-record work of `dump decode` and
 * `dump audit` out of the interpreter.
 *
 * Every function here handles the common, well-formed case and nothing else. Whatever it does not
 * recognise (a varint it would have to guess about, headers, a legacy (type 0) value, a value its
 * program does not read cleanly and wholly, a string needing escapes, an unknown tagged field in an
 * offset commit) goes to the pure-Python code, a whole batch (walk) or one record (decode, lines) at a
 * time, so the output is the reference's, byte for byte, and the reference alone words every error.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* ---- state set once by setup() ------------------------------------------------------------- */

#define N_RECORD_FIELDS 10
static const char *const RECORD_FIELDS[N_RECORD_FIELDS] = {
    "offset", "timestamp", "key", "value", "headers", "sequence", "key_size", "value_size", "crc", "crc_valid",
};
enum { R_OFFSET, R_TIMESTAMP, R_KEY, R_VALUE, R_HEADERS, R_SEQUENCE, R_KEY_SIZE, R_VALUE_SIZE, R_CRC, R_CRC_VALID };

#define N_BATCH_FIELDS 20
static const char *const BATCH_FIELDS[N_BATCH_FIELDS] = {
    "base_offset", "last_offset", "count", "base_sequence", "last_sequence", "producer_id", "producer_epoch",
    "partition_leader_epoch", "is_transactional", "is_control", "delete_horizon_ms", "position", "size", "magic",
    "compression", "timestamp_type", "max_timestamp", "crc", "crc_valid", "records",
};

static PyTypeObject *RecordType, *DecodedType, *KeyType, *ValueType, *BatchType;
static Py_ssize_t record_offsets[N_RECORD_FIELDS], batch_offsets[N_BATCH_FIELDS];
static PyObject *s_none, *s_create_time, *s_log_append_time;
static uint32_t crc_table[8][256];
static PyObject *key_cache, *uuid_cache, *uuid_from_bytes, *zero_uuid, *decode_record_py;
static PyObject *s_offset, *s_leaderEpoch, *s_metadata, *s_commitTimestamp, *s_expireTimestamp, *s_topicId;
static PyObject *s_group, *s_topic, *s_partition, *s_int, *s_magic, *s_is_control, *s_timestamp_type;
static PyObject *s_producer_id, *s_commits, *s_last, *s_deleted, *s_offsets, *s_simple, *s_records;
static PyObject *s_first_timestamp, *s_last_timestamp, *s_observe, *s_check_rewind, *s_recommitted;
#define N_BATCH_INTS 11
static const char *const BATCH_INTS[N_BATCH_INTS] = {
    "base_offset", "last_offset", "count", "base_sequence", "last_sequence", "producer_id", "producer_epoch",
    "partition_leader_epoch", "position", "max_timestamp", "size",
};
static PyObject *s_batch_ints[N_BATCH_INTS];
static PyObject *s_is_transactional, *s_delete_horizon_ms, *s_compression, *s_crc, *s_crc_valid;
static int ready = 0;

#define SLOT(obj, i) (*(PyObject **)((char *)(obj) + record_offsets[i]))

static int intern(PyObject **dst, const char *text) {
    *dst = PyUnicode_InternFromString(text);
    return *dst == NULL ? -1 : 0;
}

static int slot_offsets(PyTypeObject *type, const char *const *names, int n, Py_ssize_t *offsets) {
    for (int i = 0; i < n; i++) {
        PyObject *descr = PyDict_GetItemString(type->tp_dict, names[i]);
        if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", type->tp_name, names[i]);
            return -1;
        }
        offsets[i] = ((PyMemberDescrObject *)descr)->d_member->offset;
    }
    if (type->tp_dictoffset != 0) {
        PyErr_Format(PyExc_TypeError, "%s must have __slots__ and no __dict__", type->tp_name);
        return -1;
    }
    return 0;
}

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xFF];
}

/* CRC-32C (Castagnoli), slicing by 8. */
static uint32_t crc32c(const uint8_t *b, Py_ssize_t n) {
    uint32_t c = 0xFFFFFFFFu;
    while (n >= 8) {
        uint32_t lo = c ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        c = crc_table[7][lo & 0xFF] ^ crc_table[6][(lo >> 8) & 0xFF] ^ crc_table[5][(lo >> 16) & 0xFF] ^
            crc_table[4][lo >> 24] ^ crc_table[3][b[4]] ^ crc_table[2][b[5]] ^ crc_table[1][b[6]] ^ crc_table[0][b[7]];
        b += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ crc_table[0][(c ^ *b++) & 0xFF];
    return c ^ 0xFFFFFFFFu;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *record, *decoded, *rkey, *rvalue, *batch;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!OOOO!", &PyType_Type, &record, &PyType_Type, &decoded, &PyType_Type,
                          &rkey, &PyType_Type, &rvalue, &PyDict_Type, &key_cache, &PyDict_Type, &uuid_cache,
                          &uuid_from_bytes, &zero_uuid, &decode_record_py, &PyType_Type, &batch))
        return NULL;
    BatchType = (PyTypeObject *)batch;
    if (slot_offsets(BatchType, BATCH_FIELDS, N_BATCH_FIELDS, batch_offsets)) return NULL;
    Py_INCREF(batch);
    crc_init();
    RecordType = (PyTypeObject *)record;
    DecodedType = (PyTypeObject *)decoded;
    KeyType = (PyTypeObject *)rkey;
    ValueType = (PyTypeObject *)rvalue;
    if (!PyType_IsSubtype(DecodedType, &PyTuple_Type) || !PyType_IsSubtype(KeyType, &PyTuple_Type) ||
        !PyType_IsSubtype(ValueType, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "DecodedRecord, RecordKey and RecordValue must be tuples");
        return NULL;
    }
    if (slot_offsets(RecordType, RECORD_FIELDS, N_RECORD_FIELDS, record_offsets)) return NULL;
    Py_INCREF(record); Py_INCREF(decoded); Py_INCREF(rkey); Py_INCREF(rvalue);
    Py_INCREF(key_cache); Py_INCREF(uuid_cache); Py_INCREF(uuid_from_bytes); Py_INCREF(zero_uuid);
    Py_INCREF(decode_record_py);
    if (intern(&s_offset, "offset") || intern(&s_leaderEpoch, "leaderEpoch") || intern(&s_metadata, "metadata") ||
        intern(&s_commitTimestamp, "commitTimestamp") || intern(&s_expireTimestamp, "expireTimestamp") ||
        intern(&s_topicId, "topicId") || intern(&s_group, "group") || intern(&s_topic, "topic") ||
        intern(&s_partition, "partition") || intern(&s_int, "int") || intern(&s_magic, "magic") ||
        intern(&s_is_control, "is_control") || intern(&s_timestamp_type, "timestamp_type") ||
        intern(&s_producer_id, "producer_id") || intern(&s_is_transactional, "is_transactional") || intern(&s_delete_horizon_ms, "delete_horizon_ms") ||
        intern(&s_compression, "compression") || intern(&s_crc, "crc") || intern(&s_crc_valid, "crc_valid") ||
        intern(&s_none, "none") || intern(&s_create_time, "CreateTime") ||
        intern(&s_log_append_time, "LogAppendTime"))
        return NULL;
    for (int i = 0; i < N_BATCH_INTS; i++)
        if (intern(&s_batch_ints[i], BATCH_INTS[i])) return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

static int check_ready(void) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "groupctl.log._fastlog.setup() was not called");
        return -1;
    }
    return 0;
}

/* The attributes of the auditor and its replay that the audit functions read, bound by bind_audit from
 * Auditor.COMPILED_CONTRACT and Replay.COMPILED_CONTRACT (groupctl/log/audit.py, groupctl/log/replay.py),
 * position by position: the names are spelled there only, and a test checks each exists on an instance. */
#define N_AUDITOR_NAMES 6
#define N_REPLAY_NAMES 5
static PyObject **const AUDITOR_NAMES[N_AUDITOR_NAMES] = {&s_commits, &s_last, &s_deleted,
                                                          &s_observe, &s_check_rewind, &s_recommitted};
static PyObject **const REPLAY_NAMES[N_REPLAY_NAMES] = {&s_offsets, &s_simple, &s_records, &s_first_timestamp,
                                                        &s_last_timestamp};
static int audit_bound = 0;

static int check_names(PyObject *names, int n, const char *what) {
    if (!PyTuple_CheckExact(names) || PyTuple_GET_SIZE(names) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %d attribute names", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, i))) {
            PyErr_Format(PyExc_TypeError, "%s[%d] is not a str", what, i);
            return -1;
        }
    return 0;
}

static void bind_names(PyObject *names, PyObject **const *slots, int n) {
    for (int i = 0; i < n; i++) {
        PyObject *name = Py_NewRef(PyTuple_GET_ITEM(names, i));
        PyUnicode_InternInPlace(&name);
        Py_XSETREF(*slots[i], name);
    }
}

/* bind_audit(auditor_names, replay_names): see AUDITOR_NAMES and REPLAY_NAMES. */
static PyObject *bind_audit(PyObject *self, PyObject *args) {
    PyObject *auditor_names, *replay_names;
    if (!PyArg_ParseTuple(args, "OO", &auditor_names, &replay_names)) return NULL;
    if (check_names(auditor_names, N_AUDITOR_NAMES, "Auditor.COMPILED_CONTRACT") ||
        check_names(replay_names, N_REPLAY_NAMES, "Replay.COMPILED_CONTRACT"))
        return NULL;
    bind_names(auditor_names, AUDITOR_NAMES, N_AUDITOR_NAMES);
    bind_names(replay_names, REPLAY_NAMES, N_REPLAY_NAMES);
    audit_bound = 1;
    Py_RETURN_NONE;
}

static int check_audit(void) {
    if (check_ready()) return -1;
    if (!audit_bound) {
        PyErr_SetString(PyExc_RuntimeError, "groupctl.log._fastlog.bind_audit() was not called");
        return -1;
    }
    return 0;
}

static inline int64_t be64(const uint8_t *b) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | b[i];
    return (int64_t)v;
}
static inline int32_t be32(const uint8_t *b) {
    return (int32_t)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
}
static inline int16_t be16(const uint8_t *b) { return (int16_t)((uint16_t)b[0] << 8 | b[1]); }

/* Java's long addition, which wraps: DefaultRecord.readFrom adds baseOffset + offsetDelta and
 * baseTimestamp + timestampDelta so, and DefaultRecordBatch.lastOffset baseOffset + lastOffsetDelta. */
static inline int64_t java_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* DefaultRecordBatch.incrementSequence, in Java's wrapping int arithmetic (batch.increment_sequence). */
static inline int32_t increment_sequence(int32_t sequence, int32_t increment) {
    int32_t room = (int32_t)((uint32_t)INT32_MAX - (uint32_t)increment);
    if (sequence > room) return (int32_t)((uint32_t)increment - ((uint32_t)INT32_MAX - (uint32_t)sequence) - 1u);
    return (int32_t)((uint32_t)sequence + (uint32_t)increment);
}

/* ---- varints: 0 on success, -1 for anything the reference must judge ------------------------- */

static inline int read_uvarint32(const uint8_t *b, Py_ssize_t *p, Py_ssize_t end, uint32_t *out) {
    uint64_t raw = 0;
    Py_ssize_t q = *p;
    for (int shift = 0; shift < 35; shift += 7) {
        if (q >= end) return -1;
        uint8_t c = b[q++];
        raw |= (uint64_t)(c & 0x7F) << shift;
        if (!(c & 0x80)) {
            if (raw > 0xFFFFFFFFu) return -1;
            *out = (uint32_t)raw;
            *p = q;
            return 0;
        }
    }
    return -1;
}

static inline int read_varint(const uint8_t *b, Py_ssize_t *p, Py_ssize_t end, int64_t *out) {
    uint32_t raw;
    if (read_uvarint32(b, p, end, &raw)) return -1;
    *out = (int32_t)((raw >> 1) ^ (uint32_t)(-(int32_t)(raw & 1)));
    return 0;
}

static inline int read_varlong(const uint8_t *b, Py_ssize_t *p, Py_ssize_t end, int64_t *out) {
    uint64_t raw = 0;
    Py_ssize_t q = *p;
    for (int shift = 0; shift < 70; shift += 7) {
        if (q >= end) return -1;
        uint8_t c = b[q++];
        if (shift == 63 && c > 1) return -1;
        raw |= (uint64_t)(c & 0x7F) << shift;
        if (!(c & 0x80)) {
            *out = (int64_t)((raw >> 1) ^ (uint64_t)(-(int64_t)(raw & 1)));
            *p = q;
            return 0;
        }
    }
    return -1;
}

/* ---- walk: the records of one v2 batch ------------------------------------------------------ */

/* Keys repeat (one per group, topic and partition): the same bytes object is handed out for the same
 * key bytes, which saves an allocation per record and lets the key cache reuse the bytes' hash. */
#define KEY_SLOTS 8192
static PyObject *key_slots[KEY_SLOTS];

static PyObject *key_bytes(const uint8_t *b, Py_ssize_t n) {
    if (n > 256) return PyBytes_FromStringAndSize((const char *)b, n);
    uint32_t h = 2166136261u;
    for (Py_ssize_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    PyObject **slot = &key_slots[h & (KEY_SLOTS - 1)];
    PyObject *hit = *slot;
    if (hit != NULL && PyBytes_GET_SIZE(hit) == n && memcmp(PyBytes_AS_STRING(hit), b, n) == 0)
        return Py_NewRef(hit);
    PyObject *fresh = PyBytes_FromStringAndSize((const char *)b, n);
    if (fresh == NULL) return NULL;
    Py_XSETREF(*slot, Py_NewRef(fresh));
    return fresh;
}

static PyObject *new_record(int64_t offset, PyObject *timestamp, PyObject *key, PyObject *value, int64_t seq,
                            int64_t ksize, int64_t vsize) {
    PyObject *fields[N_RECORD_FIELDS];
    fields[R_OFFSET] = PyLong_FromLongLong(offset);
    fields[R_TIMESTAMP] = Py_NewRef(timestamp);
    fields[R_KEY] = key;
    fields[R_VALUE] = value;
    fields[R_HEADERS] = PyList_New(0);
    fields[R_SEQUENCE] = PyLong_FromLongLong(seq);
    fields[R_KEY_SIZE] = PyLong_FromLongLong(ksize);
    fields[R_VALUE_SIZE] = PyLong_FromLongLong(vsize);
    fields[R_CRC] = Py_NewRef(Py_None);
    fields[R_CRC_VALID] = Py_NewRef(Py_True);
    PyObject *rec = NULL;
    for (int i = 0; i < N_RECORD_FIELDS; i++)
        if (fields[i] == NULL) goto fail;
    rec = RecordType->tp_alloc(RecordType, 0);
    if (rec == NULL) goto fail;
    for (int i = 0; i < N_RECORD_FIELDS; i++) SLOT(rec, i) = fields[i];
    return rec;
fail:
    for (int i = 0; i < N_RECORD_FIELDS; i++) Py_XDECREF(fields[i]);
    return NULL;
}

/* The records of a v2 batch: a list, Py_None (the reference must read it), or NULL on error. */
static PyObject *walk_records(const uint8_t *b, Py_ssize_t len, Py_ssize_t p, Py_ssize_t stop, Py_ssize_t count,
                              int64_t base_offset, int64_t base_ts, int64_t max_ts, int lat, int32_t bseq) {
    PyObject *records = NULL, *ts_obj = NULL; /* records of a batch mostly share their timestamp */
    int64_t last_ts = 0;
    if (p < 0 || stop > len || p > stop || count < 0) goto fallback;
    records = PyList_New(count);
    if (records == NULL) goto error;
    for (Py_ssize_t i = 0; i < count; i++) {
        int64_t size, ts_delta, delta, ksize, vsize, nheaders;
        if (read_varint(b, &p, stop, &size)) goto fallback;
        Py_ssize_t rend = p + size;
        if (size < 6 || size > stop - p) goto fallback;
        p += 1; /* attributes */
        if (read_varlong(b, &p, rend, &ts_delta) || read_varint(b, &p, rend, &delta) ||
            read_varint(b, &p, rend, &ksize))
            goto fallback;
        PyObject *key, *value;
        if (ksize < 0) {
            ksize = -1;
            key = Py_NewRef(Py_None);
        } else {
            if (ksize > rend - p) goto fallback;
            key = key_bytes(b + p, ksize);
            if (key == NULL) goto error;
            p += ksize;
        }
        if (read_varint(b, &p, rend, &vsize)) {
            Py_DECREF(key);
            goto fallback;
        }
        if (vsize < 0) {
            vsize = -1;
            value = Py_NewRef(Py_None);
        } else {
            if (vsize > rend - p) {
                Py_DECREF(key);
                goto fallback;
            }
            value = PyBytes_FromStringAndSize((const char *)b + p, vsize);
            if (value == NULL) {
                Py_DECREF(key);
                goto error;
            }
            p += vsize;
        }
        if (read_varint(b, &p, rend, &nheaders) || nheaders != 0 || p != rend) {
            Py_DECREF(key);
            Py_DECREF(value);
            goto fallback;
        }
        int64_t seq = bseq >= 0 ? increment_sequence(bseq, (int32_t)delta) : -1;
        int64_t offset = java_add(base_offset, delta), timestamp = lat ? max_ts : java_add(base_ts, ts_delta);
        if (ts_obj == NULL || timestamp != last_ts) {
            Py_XSETREF(ts_obj, PyLong_FromLongLong(timestamp));
            last_ts = timestamp;
            if (ts_obj == NULL) {
                Py_DECREF(key);
                Py_DECREF(value);
                goto error;
            }
        }
        PyObject *rec = new_record(offset, ts_obj, key, value, seq, ksize, vsize);
        if (rec == NULL) goto error;
        PyList_SET_ITEM(records, i, rec);
    }
    Py_XDECREF(ts_obj);
    ts_obj = NULL;
    if (count && p != stop) goto fallback;
    return records;
fallback:
    Py_XDECREF(ts_obj);
    Py_XDECREF(records);
    Py_RETURN_NONE;
error:
    Py_XDECREF(ts_obj);
    Py_XDECREF(records);
    return NULL;
}

static PyObject *walk(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t p, stop, count;
    long long base_offset, base_ts, max_ts, bseq;
    int lat;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "y*nnnLLLpL", &view, &p, &stop, &count, &base_offset, &base_ts, &max_ts, &lat,
                          &bseq))
        return NULL;
    /* a v2 header's base sequence is an int32: anything else is the reference's to judge */
    PyObject *r = bseq < INT32_MIN || bseq > INT32_MAX
                      ? Py_NewRef(Py_None)
                      : walk_records(view.buf, view.len, p, stop, count, base_offset, base_ts, max_ts, lat,
                                     (int32_t)bseq);
    PyBuffer_Release(&view);
    return r;
}

/* next_batch(data, pos) -> (Batch, end) for a whole, uncompressed v2 batch whose CRC checks and whose
 * records walk cleanly; None for anything else (the reference reads it and reports what is wrong). */
/* The Batch of the uncompressed v2 batch at pos (its end in *end_out), Py_None when the reference must read
   it, NULL on an error. */
static PyObject *read_plain_batch(const uint8_t *b, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t *end_out) {
    PyObject *result = Py_None, *records = NULL;
    if (pos < 0 || n - pos < 61) goto done;
    const uint8_t *h = b + pos;
    int64_t base_offset = be64(h);
    int32_t length = be32(h + 8), ple = be32(h + 12);
    uint8_t magic = h[16];
    uint32_t crc = (uint32_t)be32(h + 17);
    int16_t attrs = be16(h + 21);
    int32_t lod = be32(h + 23);
    int64_t base_ts = be64(h + 27), max_ts = be64(h + 35), pid = be64(h + 43);
    int16_t pep = be16(h + 51);
    int32_t bseq = be32(h + 53), count = be32(h + 57);
    if (magic != 2 || length < 49 || length > n - pos - 12) goto done;
    Py_ssize_t end = pos + 12 + length;
    if ((attrs & 0x07) != 0 || count <= 0 || count > (1 << 17) || count > (end - pos - 61) / 7) goto done;
    if (crc32c(h + 21, end - pos - 21) != crc) goto done;
    int64_t last_seq = bseq >= 0 ? increment_sequence(bseq, lod) : -1, last_offset = java_add(base_offset, lod);
    int lat = (attrs & 0x08) != 0;
    records = walk_records(b, n, pos + 61, end, count, base_offset, base_ts, max_ts, lat, bseq);
    if (records == NULL) {
        result = NULL;
        goto done;
    }
    if (records == Py_None) {
        Py_DECREF(records);
        records = NULL;
        goto done;
    }
    PyObject *f[N_BATCH_FIELDS];
    int64_t ints[] = {base_offset, last_offset, count, bseq, last_seq, pid, pep, ple};
    for (int i = 0; i < 8; i++) f[i] = PyLong_FromLongLong(ints[i]);
    f[8] = Py_NewRef((attrs & 0x10) ? Py_True : Py_False);
    f[9] = Py_NewRef((attrs & 0x20) ? Py_True : Py_False);
    f[10] = (attrs & 0x40) ? PyLong_FromLongLong(base_ts) : Py_NewRef(Py_None);
    f[11] = PyLong_FromSsize_t(pos);
    f[12] = PyLong_FromLong(length + 12);
    f[13] = PyLong_FromLong(2);
    f[14] = Py_NewRef(s_none);
    f[15] = Py_NewRef(lat ? s_log_append_time : s_create_time);
    f[16] = PyLong_FromLongLong(max_ts);
    f[17] = PyLong_FromUnsignedLong(crc);
    f[18] = Py_NewRef(Py_True);
    f[19] = records;
    records = NULL;
    PyObject *batch = NULL;
    int ok = 1;
    for (int i = 0; i < N_BATCH_FIELDS; i++) ok = ok && f[i] != NULL;
    if (ok) batch = BatchType->tp_alloc(BatchType, 0);
    if (batch == NULL) {
        for (int i = 0; i < N_BATCH_FIELDS; i++) Py_XDECREF(f[i]);
        result = NULL;
        goto done;
    }
    for (int i = 0; i < N_BATCH_FIELDS; i++) *(PyObject **)((char *)batch + batch_offsets[i]) = f[i];
    *end_out = end;
    return batch;
done:
    Py_XDECREF(records);
    if (result == Py_None) Py_RETURN_NONE;
    return result;
}

static PyObject *next_batch(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t pos, end = 0;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos)) return NULL;
    PyObject *batch = read_plain_batch(view.buf, view.len, pos, &end);
    PyBuffer_Release(&view);
    if (batch == NULL || batch == Py_None) return batch;
    return Py_BuildValue("(Nn)", batch, end);
}

static PyObject *decode_list(PyObject *batch, PyObject *records, int control);

/* A run of plain batches from pos while they start before `until`: the reader's Python loop then runs
   once per run, not per batch. With `decoded`, each item is (batch, its DecodedRecords). */
static PyObject *next_batches(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t pos, until;
    int decoded;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "y*nnp", &view, &pos, &until, &decoded)) return NULL;
    PyObject *items = PyList_New(0);
    if (items == NULL) goto error;
    while (pos < until) {
        Py_ssize_t end = 0;
        PyObject *batch = read_plain_batch(view.buf, view.len, pos, &end);
        if (batch == NULL) goto error;
        if (batch == Py_None) {
            Py_DECREF(batch);
            break;
        }
        PyObject *item = batch;
        if (decoded) {
            PyObject *records = *(PyObject **)((char *)batch + batch_offsets[N_BATCH_FIELDS - 1]);
            PyObject *dec = decode_list(batch, records, ((const uint8_t *)view.buf)[pos + 22] & 0x20);
            item = dec == NULL ? NULL : PyTuple_Pack(2, batch, dec);
            Py_XDECREF(dec);
            Py_DECREF(batch);
        }
        if (item == NULL) goto error;
        int bad = PyList_Append(items, item);
        Py_DECREF(item);
        if (bad) goto error;
        pos = end;
    }
    PyBuffer_Release(&view);
    if (PyList_GET_SIZE(items) == 0) {
        Py_DECREF(items);
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(Nn)", items, pos);
error:
    Py_XDECREF(items);
    PyBuffer_Release(&view);
    return NULL;
}

/* ---- decode: keys from the reference's cache, values here (OffsetCommits by hand, group records by program) */

static PyObject *new_tuple_of(PyTypeObject *type, Py_ssize_t n, PyObject **items) {
    /* A NamedTuple instance without its __new__; steals the references in items. */
    PyObject *t = type->tp_alloc(type, n);
    if (t == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(items[i]);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, items[i]);
    return t;
}


static int dict_set_steal(PyObject *d, PyObject *k, PyObject *v) {
    if (v == NULL) return -1;
    int rc = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *topic_id(const uint8_t *raw) {
    PyObject *key = PyBytes_FromStringAndSize((const char *)raw, 16);
    if (key == NULL) return NULL;
    PyObject *u = PyDict_GetItemWithError(uuid_cache, key);
    if (u != NULL) {
        Py_DECREF(key);
        return Py_NewRef(u);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    u = PyObject_CallOneArg(uuid_from_bytes, key);
    Py_DECREF(key);
    return u;
}

/* The fields of an OffsetCommitValue (type 1) at versions 0-4, read without building anything. */
typedef struct {
    int64_t offset, commit_ts, expire_ts;
    int32_t leader_epoch;
    Py_ssize_t mstart, mlen;
    const uint8_t *uuid_raw;
} CommitFields;

/* 0 when the value reads as the generated decoder reads it, 1 when the reference is to decode it. */
static int scan_commit(const uint8_t *b, Py_ssize_t n, int version, CommitFields *f) {
    Py_ssize_t p = 2;
    f->expire_ts = 0;
    f->leader_epoch = 0;
    f->uuid_raw = NULL;
    if (version < 0 || version > 4) return 1;
    if (version == 4) {
        if (n < p + 12) return 1;
        f->offset = be64(b + p);
        f->leader_epoch = be32(b + p + 8);
        p += 12;
        uint32_t raw;
        if (read_uvarint32(b, &p, n, &raw)) return 1;
        f->mlen = (Py_ssize_t)raw - 1;
        if (f->mlen < 0 || f->mlen > 32767) return 1;
    } else {
        Py_ssize_t head = version == 3 ? 14 : 10;
        if (n < p + head) return 1;
        f->offset = be64(b + p);
        if (version == 3) f->leader_epoch = be32(b + p + 8);
        f->mlen = be16(b + p + head - 2);
        p += head;
        if (f->mlen < 0) return 1;
    }
    if (f->mlen > n - p) return 1;
    f->mstart = p;
    p += f->mlen;
    if (n - p < 8) return 1;
    f->commit_ts = be64(b + p);
    p += 8;
    if (version == 1) {
        if (n - p < 8) return 1;
        f->expire_ts = be64(b + p);
        p += 8;
    }
    if (version == 4) {
        uint32_t ntags;
        if (read_uvarint32(b, &p, n, &ntags)) return 1;
        for (uint32_t t = 0; t < ntags; t++) {
            uint32_t tag, size;
            if (read_uvarint32(b, &p, n, &tag) || read_uvarint32(b, &p, n, &size)) return 1;
            if (tag != 0 || size != 16 || n - p < 16 || f->uuid_raw != NULL) return 1;
            f->uuid_raw = b + p;
            p += 16;
        }
    }
    return 0;
}

/* The data dict of an OffsetCommitValue (type 1) at versions 0-4, as the generated decoder builds
 * it; NULL without an exception set means "let the reference decode it". */
static PyObject *offset_commit_data(const uint8_t *b, Py_ssize_t n, int version, PyObject *record_ts) {
    CommitFields f;
    if (scan_commit(b, n, version, &f)) return NULL;
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    if (dict_set_steal(d, s_offset, PyLong_FromLongLong(f.offset))) goto error;
    if (version >= 3 && dict_set_steal(d, s_leaderEpoch, PyLong_FromLong(f.leader_epoch))) goto error;
    if (dict_set_steal(d, s_metadata, PyUnicode_DecodeUTF8((const char *)b + f.mstart, f.mlen, "replace"))) goto error;
    /* The commit's timestamp is usually its record's: share that int. */
    int overflow = 1;
    int64_t rts = record_ts != NULL && PyLong_CheckExact(record_ts) ? PyLong_AsLongLongAndOverflow(record_ts, &overflow) : 0;
    if (rts == -1 && PyErr_Occurred()) PyErr_Clear();
    PyObject *cts = !overflow && rts == f.commit_ts ? Py_NewRef(record_ts) : PyLong_FromLongLong(f.commit_ts);
    if (dict_set_steal(d, s_commitTimestamp, cts)) goto error;
    if (version == 1 && dict_set_steal(d, s_expireTimestamp, PyLong_FromLongLong(f.expire_ts))) goto error;
    if (version == 4) {
        PyObject *u = f.uuid_raw == NULL ? Py_NewRef(zero_uuid) : topic_id(f.uuid_raw);
        if (dict_set_steal(d, s_topicId, u)) goto error;
    }
    return d;
error:
    Py_DECREF(d);
    return NULL;
}

/* ---- group-record values: a flat program per (type, version), compiled by value_programs.py ---- */

/* The kinds and flags of groupctl/protocol/value_programs.py, in its order. */
enum { VK_BOOL, VK_INT8, VK_INT16, VK_UINT16, VK_INT32, VK_UINT32, VK_INT64, VK_FLOAT64, VK_UUID, VK_STRING,
       VK_BYTES, VK_STRUCT, VK_ARRAY, VK_ARRAY_STRUCT, VK_KINDS };
enum { VF_NULLABLE = 1, VF_COMPACT = 2, VF_TAGGED = 4 };
static const int FIXED_SIZE[VK_STRING] = {1, 1, 2, 2, 4, 4, 8, 8, 16};
/* value_programs.py's MAX_TYPES, MAX_VERSIONS and MAX_SLOTS: it leaves out what is beyond them. */
#define PROGRAM_TYPES 64
#define PROGRAM_VERSIONS 16
#define PROGRAM_SLOTS 64
#define PROGRAM_DEPTH 16

typedef struct {
    PyObject *ops;    /* bytes of int32s */
    PyObject *consts; /* tuple */
} Program;
static Program programs[PROGRAM_TYPES][PROGRAM_VERSIONS];
static PyObject *s_unknown_tags;

typedef struct {
    const uint8_t *b;
    Py_ssize_t n;
    const int32_t *ops;
    PyObject *const *consts;
} VCtx;

/* A compact length or count: readUnsignedVarint() - 1; -1 (null) and up. Values Java would wrap are the
 * reference's to judge. */
static inline int v_compact(const VCtx *c, Py_ssize_t *p, int64_t *out) {
    uint32_t raw;
    if (read_uvarint32(c->b, p, c->n, &raw) || raw > INT32_MAX) return -1;
    *out = (int64_t)raw - 1;
    return 0;
}

static inline int v_uvarint(const VCtx *c, Py_ssize_t *p, int64_t *out) {
    uint32_t raw;
    if (read_uvarint32(c->b, p, c->n, &raw) || raw > INT32_MAX) return -1;
    *out = raw;
    return 0;
}

static PyObject *v_fixed(int kind, const uint8_t *b) {
    switch (kind) {
    case VK_BOOL: return Py_NewRef(b[0] ? Py_True : Py_False);
    case VK_INT8: return PyLong_FromLong((int8_t)b[0]);
    case VK_INT16: return PyLong_FromLong(be16(b));
    case VK_UINT16: return PyLong_FromLong((uint16_t)be16(b));
    case VK_INT32: return PyLong_FromLong(be32(b));
    case VK_UINT32: return PyLong_FromUnsignedLong((uint32_t)be32(b));
    case VK_INT64: return PyLong_FromLongLong(be64(b));
    case VK_FLOAT64: {
        uint64_t bits = (uint64_t)be64(b);
        double d;
        memcpy(&d, &bits, 8);
        return PyFloat_FromDouble(d);
    }
    default: return topic_id(b);
    }
}

/* A tagged field's default, fresh as the generated decoder builds it: containers copied, the rest shared. */
static PyObject *fresh_copy(PyObject *obj) {
    if (PyList_CheckExact(obj)) {
        Py_ssize_t n = PyList_GET_SIZE(obj);
        PyObject *out = PyList_New(n);
        if (out == NULL) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = fresh_copy(PyList_GET_ITEM(obj, i));
            if (item == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, i, item);
        }
        return out;
    }
    if (PyDict_CheckExact(obj)) {
        PyObject *out = PyDict_New(), *k, *v;
        Py_ssize_t pos = 0;
        if (out == NULL) return NULL;
        while (PyDict_Next(obj, &pos, &k, &v)) {
            if (dict_set_steal(out, k, fresh_copy(v))) {
                Py_DECREF(out);
                return NULL;
            }
        }
        return out;
    }
    return Py_NewRef(obj);
}

static PyObject *v_struct(const VCtx *c, int32_t s, Py_ssize_t *p);

/* One field's value; NULL without an exception set means "the reference is to decode this value". */
static PyObject *v_field(const VCtx *c, int kind, int flags, int32_t aux, Py_ssize_t *p) {
    const uint8_t *b = c->b;
    Py_ssize_t n = c->n;
    int64_t len;
    if (kind < VK_STRING) {
        int size = FIXED_SIZE[kind];
        if (n - *p < size) return NULL;
        PyObject *v = v_fixed(kind, b + *p);
        *p += size;
        return v;
    }
    if (kind == VK_STRUCT) {
        if (flags & VF_NULLABLE) {
            if (flags & VF_TAGGED) {
                if (v_uvarint(c, p, &len)) return NULL;
                if (len <= 0) return Py_NewRef(Py_None);
            } else {
                if (n - *p < 1) return NULL;
                if ((int8_t)b[(*p)++] < 0) return Py_NewRef(Py_None);
            }
        }
        return v_struct(c, aux, p);
    }
    if (flags & VF_COMPACT) {
        if (v_compact(c, p, &len)) return NULL;
    } else if (kind == VK_STRING) {
        if (n - *p < 2) return NULL;
        len = be16(b + *p);
        *p += 2;
    } else {
        if (n - *p < 4) return NULL;
        len = be32(b + *p);
        *p += 4;
    }
    if (len < 0) return (flags & VF_NULLABLE) ? Py_NewRef(Py_None) : NULL;
    if (len > n - *p) return NULL; /* a length, or a count of elements of a byte at least */
    if (kind == VK_STRING || kind == VK_BYTES) {
        if (kind == VK_STRING && (flags & VF_COMPACT) && len > 32767) return NULL;
        const char *start = (const char *)b + *p;
        *p += len;
        return kind == VK_STRING ? PyUnicode_DecodeUTF8(start, len, "replace") : PyBytes_FromStringAndSize(start, len);
    }
    PyObject *list = PyList_New((Py_ssize_t)len);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = kind == VK_ARRAY_STRUCT ? v_struct(c, aux, p) : v_field(c, aux, flags & VF_COMPACT, 0, p);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* A struct's dict, keys in the generated decoder's order, unknown tagged fields last. */
static PyObject *v_struct(const VCtx *c, int32_t s, Py_ssize_t *p) {
    const int32_t *h = c->ops + s;
    int nslots = h[0], nplain = h[1], ntags = h[2], flexible = h[3];
    const int32_t *keys = h + 4, *plain = keys + nslots, *tags = plain + 4 * nplain;
    PyObject *vals[PROGRAM_SLOTS] = {NULL}, *unk = NULL, *d = NULL;
    for (int i = 0; i < nplain; i++) {
        const int32_t *f = plain + 4 * i;
        if ((vals[f[0]] = v_field(c, f[1], f[2], f[3], p)) == NULL) goto done;
    }
    if (flexible) {
        for (int i = 0; i < ntags; i++) {
            const int32_t *t = tags + 6 * i;
            if (t[1] >= 0 && (vals[t[1]] = fresh_copy(c->consts[t[5]])) == NULL) goto done;
        }
        int64_t count, tag, size;
        if (v_uvarint(c, p, &count)) goto done;
        for (int64_t k = 0; k < count; k++) {
            if (v_uvarint(c, p, &tag) || v_uvarint(c, p, &size)) goto done;
            const int32_t *t = NULL;
            for (int i = 0; i < ntags && t == NULL; i++)
                if (tags[6 * i] == tag) t = tags + 6 * i;
            if (size > c->n - *p) goto done;
            if (t != NULL) {
                if (t[1] < 0) goto done; /* a tag not valid at this version */
                Py_ssize_t start = *p;
                PyObject *v = v_field(c, t[2], t[3], t[4], p);
                if (v == NULL) goto done;
                Py_SETREF(vals[t[1]], v);
                if (*p - start != size) goto done; /* a size that is not the field's: let the reference read it */
                continue;
            }
            if (unk == NULL && (unk = PyList_New(0)) == NULL) goto done;
            PyObject *pair = Py_BuildValue("(Ly#)", (long long)tag, (const char *)c->b + *p, (Py_ssize_t)size);
            *p += size;
            if (pair == NULL) goto done;
            int rc = PyList_Append(unk, pair);
            Py_DECREF(pair);
            if (rc) goto done;
        }
    }
    for (int i = 0; i < nslots; i++)
        if (vals[i] == NULL) goto done;
    if ((d = PyDict_New()) == NULL) goto done;
    for (int i = 0; i < nslots; i++) {
        if (PyDict_SetItem(d, c->consts[keys[i]], vals[i])) {
            Py_CLEAR(d);
            goto done;
        }
    }
    if (unk != NULL && PyDict_SetItem(d, s_unknown_tags, unk)) Py_CLEAR(d);
done:
    for (int i = 0; i < nslots; i++) Py_XDECREF(vals[i]);
    Py_XDECREF(unk);
    return d;
}

/* The data dict of a group record's value, or NULL: with an exception set, an error; without, the
 * reference is to decode it (no program, or anything the program does not read cleanly and wholly). */
static PyObject *group_value_data(long type, int version, const uint8_t *b, Py_ssize_t n) {
    if (type < 0 || type >= PROGRAM_TYPES || version < 0 || version >= PROGRAM_VERSIONS) return NULL;
    Program *pg = &programs[type][version];
    if (pg->ops == NULL) return NULL;
    VCtx c = {b, n, (const int32_t *)PyBytes_AS_STRING(pg->ops),
              ((PyTupleObject *)pg->consts)->ob_item};
    Py_ssize_t p = 2;
    PyObject *d = v_struct(&c, 0, &p);
    if (d != NULL && p != n) Py_CLEAR(d); /* trailing bytes: the reference decides (early-access layouts) */
    return d;
}

/* Whether a program is well formed: every offset, slot, kind and constant in range, nesting bounded. */
static int check_field(const int32_t *ops, Py_ssize_t nops, PyObject *consts, int kind, int32_t aux, int depth);

static int check_struct(const int32_t *ops, Py_ssize_t nops, PyObject *consts, int32_t s, int depth) {
    if (depth > PROGRAM_DEPTH || s < 0 || s + 4 > nops) return -1;
    const int32_t *h = ops + s;
    int32_t nslots = h[0], nplain = h[1], ntags = h[2];
    if (nslots < 0 || nslots > PROGRAM_SLOTS || nplain < 0 || nplain > nslots || ntags < 0 || ntags > 1024 ||
        (h[3] != 0 && h[3] != 1) || s + 4 + nslots + 4 * nplain + 6 * ntags > nops)
        return -1;
    Py_ssize_t nconsts = PyTuple_GET_SIZE(consts);
    const int32_t *keys = h + 4, *plain = keys + nslots, *tags = plain + 4 * nplain;
    for (int i = 0; i < nslots; i++)
        if (keys[i] < 0 || keys[i] >= nconsts || !PyUnicode_CheckExact(PyTuple_GET_ITEM(consts, keys[i]))) return -1;
    for (int i = 0; i < nplain; i++) {
        const int32_t *f = plain + 4 * i;
        if (f[0] < 0 || f[0] >= nslots || check_field(ops, nops, consts, f[1], f[3], depth)) return -1;
    }
    for (int i = 0; i < ntags; i++) {
        const int32_t *t = tags + 6 * i;
        if (t[1] < -1 || t[1] >= nslots) return -1;
        if (t[1] >= 0 && (t[5] < 0 || t[5] >= nconsts || check_field(ops, nops, consts, t[2], t[4], depth))) return -1;
    }
    return 0;
}

static int check_field(const int32_t *ops, Py_ssize_t nops, PyObject *consts, int kind, int32_t aux, int depth) {
    if (kind < 0 || kind >= VK_KINDS) return -1;
    if (kind == VK_STRUCT || kind == VK_ARRAY_STRUCT) return check_struct(ops, nops, consts, aux, depth + 1);
    if (kind == VK_ARRAY) return aux >= 0 && aux <= VK_BYTES ? 0 : -1;
    return 0;
}

/* set_value_programs([(type, version, ops, consts), ...]): the programs group_value_data runs. */
static PyObject *set_value_programs(PyObject *self, PyObject *arg) {
    if (!PyList_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "set_value_programs takes a list of (type, version, ops, consts)");
        return NULL;
    }
    if (s_unknown_tags == NULL && intern(&s_unknown_tags, "_unknownTaggedFields")) return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(arg); i++) {
        int type, version;
        PyObject *ops, *consts;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(arg, i), "iiO!O!", &type, &version, &PyBytes_Type, &ops, &PyTuple_Type,
                              &consts))
            return NULL;
        Py_ssize_t nops = PyBytes_GET_SIZE(ops) / (Py_ssize_t)sizeof(int32_t);
        if (type < 0 || type >= PROGRAM_TYPES || version < 0 || version >= PROGRAM_VERSIONS ||
            PyBytes_GET_SIZE(ops) % (Py_ssize_t)sizeof(int32_t) != 0 || PyTuple_GET_SIZE(consts) == 0 ||
            check_struct((const int32_t *)PyBytes_AS_STRING(ops), nops, consts, 0, 0)) {
            PyErr_Format(PyExc_ValueError, "a malformed value program for type %d version %d", type, version);
            return NULL;
        }
        Program *pg = &programs[type][version];
        Py_XSETREF(pg->ops, Py_NewRef(ops));
        Py_XSETREF(pg->consts, Py_NewRef(consts));
    }
    Py_RETURN_NONE;
}

/* decode_value(type, value) -> RecordValue, or None when the reference is to decode it (tests call it). */
static PyObject *decode_value_py(PyObject *self, PyObject *args) {
    long type;
    PyObject *vbytes;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "lO!", &type, &PyBytes_Type, &vbytes)) return NULL;
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(vbytes);
    Py_ssize_t n = PyBytes_GET_SIZE(vbytes);
    if (n < 2) Py_RETURN_NONE;
    int version = be16(b);
    PyObject *data = type == 1 ? offset_commit_data(b, n, version, NULL) : group_value_data(type, version, b, n);
    if (data == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *items[2] = {PyLong_FromLong(version), data};
    if (items[0] == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    return new_tuple_of(ValueType, 2, items);
}

static PyObject *decode_one(PyObject *batch, PyObject *rec, int *fallback) {
    *fallback = 1;
    if (Py_TYPE(rec) != RecordType) return NULL;
    PyObject *kbytes = SLOT(rec, R_KEY), *vbytes = SLOT(rec, R_VALUE);
    if (kbytes == NULL || vbytes == NULL || !PyBytes_CheckExact(kbytes)) return NULL;
    PyObject *key = PyDict_GetItemWithError(key_cache, kbytes);
    if (key == NULL) {
        if (PyErr_Occurred()) {
            *fallback = 0;
        }
        return NULL;
    }
    if (Py_TYPE(key) != KeyType || PyTuple_GET_SIZE(key) != 2) return NULL;
    PyObject *value;
    if (vbytes == Py_None) {
        value = Py_NewRef(Py_None);
    } else {
        PyObject *tobj = PyTuple_GET_ITEM(key, 0);
        if (!PyLong_CheckExact(tobj) || !PyBytes_CheckExact(vbytes)) return NULL;
        long type = PyLong_AsLong(tobj);
        if (type == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(vbytes);
        Py_ssize_t n = PyBytes_GET_SIZE(vbytes);
        if (n < 2) return NULL;
        int version = be16(b);
        PyObject *data = type == 1 ? offset_commit_data(b, n, version, SLOT(rec, R_TIMESTAMP))
                                   : group_value_data(type, version, b, n);
        if (data == NULL) {
            if (PyErr_Occurred()) *fallback = 0;
            return NULL;
        }
        PyObject *items[2] = {PyLong_FromLong(version), data};
        if (items[0] == NULL) {
            Py_DECREF(data);
            *fallback = 0;
            return NULL;
        }
        value = new_tuple_of(ValueType, 2, items);
        if (value == NULL) {
            *fallback = 0;
            return NULL;
        }
    }
    *fallback = 0;
    PyObject *items[7] = {Py_NewRef(batch), Py_NewRef(rec), Py_NewRef(key), value,
                          Py_NewRef(Py_None), Py_NewRef(Py_None), Py_NewRef(Py_None)};
    return new_tuple_of(DecodedType, 7, items);
}

static PyObject *decode(PyObject *self, PyObject *args) {
    PyObject *batch, *records;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "OO!", &batch, &PyList_Type, &records)) return NULL;
    PyObject *ctl = PyObject_GetAttr(batch, s_is_control);
    if (ctl == NULL) return NULL;
    int control = PyObject_IsTrue(ctl);
    Py_DECREF(ctl);
    if (control < 0) return NULL;
    return decode_list(batch, records, control);
}

static PyObject *decode_list(PyObject *batch, PyObject *records, int control) {
    Py_ssize_t n = PyList_GET_SIZE(records);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *rec = PyList_GET_ITEM(records, i);
        int fallback = 1;
        PyObject *d = control ? NULL : decode_one(batch, rec, &fallback);
        if (d == NULL) {
            if (!fallback) goto error;
            d = PyObject_CallFunctionObjArgs(decode_record_py, batch, rec, NULL);
            if (d == NULL) goto error;
        }
        PyList_SET_ITEM(out, i, d);
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

/* ---- text: dump-log and jsonl lines of decoded OffsetCommit records ---------------------------- */

typedef struct {
    char *buf;
    Py_ssize_t len, cap;
    const char *errors; /* set: the lines come out as UTF-8 bytes, reference lines encoded with it */
} Out;

static int out_reserve(Out *o, Py_ssize_t more) {
    if (o->len + more <= o->cap) return 0;
    Py_ssize_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + more) cap *= 2;
    char *buf = PyMem_Realloc(o->buf, cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    o->buf = buf;
    o->cap = cap;
    return 0;
}

static inline int out_mem(Out *o, const char *s, Py_ssize_t n) {
    if (out_reserve(o, n)) return -1;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 0;
}
#define OUT_LIT(o, s) out_mem((o), (s), (Py_ssize_t)sizeof(s) - 1)

static int out_i64(Out *o, int64_t v) {
    char tmp[24];
    int i = 24;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[--i] = '-';
    return out_mem(o, tmp + i, 24 - i);
}

/* An exact int that fits int64; 1 = not one (the reference renders the record). */
static int exact_i64(PyObject *x, int64_t *v) {
    if (x == NULL || !PyLong_CheckExact(x)) return 1;
    int overflow;
    *v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || (*v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 1;
    }
    return 0;
}

/* An int64 from a dict field; 1 = not one. */
static int get_i64(PyObject *d, PyObject *name, int64_t *v) { return exact_i64(PyDict_GetItemWithError(d, name), v); }

/* A str that JSON (Jackson's and Python's alike) writes as is: printable ASCII but `"` and `\`. */
static int plain_str(PyObject *s, const char **text, Py_ssize_t *n) {
    if (s == NULL || !PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s)) return 1;
    const unsigned char *c = PyUnicode_1BYTE_DATA(s);
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    for (Py_ssize_t i = 0; i < len; i++)
        if (c[i] < 0x20 || c[i] > 0x7E || c[i] == '"' || c[i] == '\\') return 1;
    *text = (const char *)c;
    *n = len;
    return 0;
}

static int out_str(Out *o, const char *s, Py_ssize_t n) {
    if (out_reserve(o, n + 2)) return -1;
    o->buf[o->len++] = '"';
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len++] = '"';
    return 0;
}

static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* A uuid's 16 bytes; 1 = not a plain UUID. */
static int uuid_bytes(PyObject *u, uint8_t raw[16]) {
    PyObject *i = PyObject_GetAttr(u, s_int);
    if (i == NULL) {
        PyErr_Clear();
        return 1;
    }
    if (!PyLong_CheckExact(i) || Py_SIZE(i) < 0) {
        Py_DECREF(i);
        return 1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    int rc = _PyLong_AsByteArray((PyLongObject *)i, raw, 16, 0, 0, 0);
#else
    int rc = _PyLong_AsByteArray((PyLongObject *)i, raw, 16, 0, 0);
#endif
    Py_DECREF(i);
    if (rc < 0) {
        PyErr_Clear();
        return 1;
    }
    return 0;
}

static void kafka_uuid(const uint8_t raw[16], char text[22]) {
    int j = 0;
    for (int i = 0; i < 15; i += 3) {
        uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 | raw[i + 2];
        text[j++] = B64URL[v >> 18];
        text[j++] = B64URL[(v >> 12) & 63];
        text[j++] = B64URL[(v >> 6) & 63];
        text[j++] = B64URL[v & 63];
    }
    text[j++] = B64URL[raw[15] >> 2];
    text[j++] = B64URL[(raw[15] & 3) << 4];
}

/* `"data":{...}` of an OffsetCommitValue; 1 = the reference renders it. */
static int out_offset_commit(Out *o, PyObject *value, int hide_topic_id) {
    if (Py_TYPE(value) != ValueType || PyTuple_GET_SIZE(value) != 2) return 1;
    PyObject *ver = PyTuple_GET_ITEM(value, 0), *d = PyTuple_GET_ITEM(value, 1);
    if (!PyLong_CheckExact(ver) || !PyDict_CheckExact(d)) return 1;
    long version = PyLong_AsLong(ver);
    if (version < 0 || version > 4) return 1;
    static const Py_ssize_t sizes[5] = {3, 4, 3, 4, 5};
    if (PyDict_GET_SIZE(d) != sizes[version]) return 1;
    int64_t offset, epoch = 0, commit, expire = 0;
    const char *meta;
    Py_ssize_t mlen;
    if (get_i64(d, s_offset, &offset) || get_i64(d, s_commitTimestamp, &commit)) return 1;
    if (version >= 3 && get_i64(d, s_leaderEpoch, &epoch)) return 1;
    if (version == 1 && get_i64(d, s_expireTimestamp, &expire)) return 1;
    if (plain_str(PyDict_GetItemWithError(d, s_metadata), &meta, &mlen)) return 1;
    char tid[22];
    int show_tid = 0;
    if (version == 4) {
        PyObject *u = PyDict_GetItemWithError(d, s_topicId);
        uint8_t raw[16];
        if (u == NULL || uuid_bytes(u, raw)) return 1;
        static const uint8_t zero[16] = {0};
        if (memcmp(raw, zero, 16) != 0 && !hide_topic_id) {
            show_tid = 1;
            kafka_uuid(raw, tid);
        }
    }
    if (OUT_LIT(o, "\"data\":{\"offset\":") || out_i64(o, offset)) return -1;
    if (version >= 3 && (OUT_LIT(o, ",\"leaderEpoch\":") || out_i64(o, epoch))) return -1;
    if (OUT_LIT(o, ",\"metadata\":") || out_str(o, meta, mlen)) return -1;
    if (OUT_LIT(o, ",\"commitTimestamp\":") || out_i64(o, commit)) return -1;
    if (version == 1 && (OUT_LIT(o, ",\"expireTimestamp\":") || out_i64(o, expire))) return -1;
    if (show_tid && (OUT_LIT(o, ",\"topicId\":") || out_str(o, tid, 22))) return -1;
    return OUT_LIT(o, "}");
}

/* `"data":{"group":..,"topic":..,"partition":..}` of an OffsetCommitKey; 1 = the reference renders it. */
static int out_key_data(Out *o, PyObject *data) {
    const char *g, *t;
    Py_ssize_t gl, tl;
    int64_t partition;
    if (!PyDict_CheckExact(data) || PyDict_GET_SIZE(data) != 3) return 1;
    if (plain_str(PyDict_GetItemWithError(data, s_group), &g, &gl) ||
        plain_str(PyDict_GetItemWithError(data, s_topic), &t, &tl) || get_i64(data, s_partition, &partition))
        return 1;
    if (OUT_LIT(o, "\"data\":{\"group\":") || out_str(o, g, gl) || OUT_LIT(o, ",\"topic\":") ||
        out_str(o, t, tl) || OUT_LIT(o, ",\"partition\":") || out_i64(o, partition) || OUT_LIT(o, "}"))
        return -1;
    return 0;
}

typedef struct {
    PyObject *rec, *record, *key, *value;
    int64_t offset, timestamp, ksize, vsize, seq;
    int offset_commit; /* the key is type 1 */
} Common;

/* The fields of a decoded, error-free OffsetCommit record without headers; 1 = not one. */
static int small_version(PyObject *value) {
    if (Py_TYPE(value) != ValueType || PyTuple_GET_SIZE(value) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(value, 0)))
        return -1;
    long v = PyLong_AsLong(PyTuple_GET_ITEM(value, 0));
    if (v < 0 || v > 4) {
        PyErr_Clear();
        return -1;
    }
    return (int)v;
}

static int common_record(PyObject *rec, Common *c) {
    if (Py_TYPE(rec) != DecodedType || PyTuple_GET_SIZE(rec) != 7) return 1;
    c->rec = rec;
    c->record = PyTuple_GET_ITEM(rec, 1);
    c->key = PyTuple_GET_ITEM(rec, 2);
    c->value = PyTuple_GET_ITEM(rec, 3);
    if (PyTuple_GET_ITEM(rec, 4) != Py_None || PyTuple_GET_ITEM(rec, 5) != Py_None ||
        PyTuple_GET_ITEM(rec, 6) != Py_None)
        return 1;
    if (Py_TYPE(c->record) != RecordType || Py_TYPE(c->key) != KeyType || PyTuple_GET_SIZE(c->key) != 2) return 1;
    PyObject *type = PyTuple_GET_ITEM(c->key, 0);
    if (!PyLong_CheckExact(type)) return 1;
    c->offset_commit = PyLong_AsLong(type) == 1;
    PyObject *headers = SLOT(c->record, R_HEADERS);
    if (headers == NULL || !PyList_CheckExact(headers) || PyList_GET_SIZE(headers) != 0) return 1;
    PyObject *fields[5] = {SLOT(c->record, R_OFFSET), SLOT(c->record, R_TIMESTAMP), SLOT(c->record, R_KEY_SIZE),
                           SLOT(c->record, R_VALUE_SIZE), SLOT(c->record, R_SEQUENCE)};
    int64_t *dst[5] = {&c->offset, &c->timestamp, &c->ksize, &c->vsize, &c->seq};
    for (int i = 0; i < 5; i++)
        if (exact_i64(fields[i], dst[i])) return 1;
    return 0;
}

/* Per-batch facts the lines need: magic >= 2, not control, the timestamp type's text. */
static int batch_facts(PyObject *batch, int *fast, PyObject **ts_type) {
    *fast = 0;
    *ts_type = NULL;
    PyObject *magic = PyObject_GetAttr(batch, s_magic);
    if (magic == NULL) return -1;
    long m = PyLong_Check(magic) ? PyLong_AsLong(magic) : -1;
    Py_DECREF(magic);
    if (m == -1 && PyErr_Occurred()) PyErr_Clear();
    PyObject *ctl = PyObject_GetAttr(batch, s_is_control);
    if (ctl == NULL) return -1;
    int control = PyObject_IsTrue(ctl);
    Py_DECREF(ctl);
    if (control < 0) return -1;
    PyObject *tt = PyObject_GetAttr(batch, s_timestamp_type);
    if (tt == NULL) return -1;
    const char *text;
    Py_ssize_t n;
    if (m >= 2 && !control && !plain_str(tt, &text, &n)) {
        *fast = 1;
        *ts_type = tt;
    } else {
        Py_DECREF(tt);
    }
    return 0;
}

/* Appends a Python-rendered line (the reference's) to the pieces, after what is buffered. */
static int flush(Out *o, PyObject *pieces) {
    if (o->len == 0) return 0;
    PyObject *s = PyUnicode_DecodeASCII(o->buf, o->len, "strict");
    if (s == NULL) return -1;
    o->len = 0;
    int rc = PyList_Append(pieces, s);
    Py_DECREF(s);
    return rc;
}

static int reference_line(Out *o, PyObject *pieces, PyObject *fn, PyObject *rec) {
    if (o->errors == NULL && flush(o, pieces)) return -1;
    PyObject *line = PyObject_CallOneArg(fn, rec);
    if (line == NULL) return -1;
    int rc;
    if (o->errors == NULL) {
        rc = PyList_Append(pieces, line);
    } else {
        /* as the text layer would encode it, straight into the buffer: no str of the whole batch */
        PyObject *raw = PyUnicode_Check(line) ? PyUnicode_AsEncodedString(line, "utf-8", o->errors) : NULL;
        if (raw == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a reference line must be a str");
        rc = raw == NULL ? -1 : out_mem(o, PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw));
        Py_XDECREF(raw);
    }
    Py_DECREF(line);
    if (rc == 0) rc = OUT_LIT(o, "\n");
    return rc;
}

static PyObject *finish(Out *o, PyObject *pieces) {
    PyObject *result = NULL;
    if (o->errors != NULL) {
        result = PyBytes_FromStringAndSize(o->buf == NULL ? "" : o->buf, o->len);
    } else if (flush(o, pieces) == 0) {
        PyObject *empty = PyUnicode_FromString("");
        if (empty != NULL) {
            result = PyUnicode_Join(empty, pieces);
            Py_DECREF(empty);
        }
    }
    PyMem_Free(o->buf);
    Py_DECREF(pieces);
    return result;
}

static int attr_i64(PyObject *obj, PyObject *name, int64_t *v) {
    /* 1 = not an int that fits (the reference prints the line), -1 = error */
    PyObject *x = PyObject_GetAttr(obj, name);
    if (x == NULL) return -1;
    int rc = exact_i64(x, v);
    Py_DECREF(x);
    return rc;
}

static int attr_bool(PyObject *obj, PyObject *name, int *v) {
    PyObject *x = PyObject_GetAttr(obj, name);
    if (x == NULL) return -1;
    int rc = 1;
    if (x == Py_True || x == Py_False) {
        *v = x == Py_True;
        rc = 0;
    }
    Py_DECREF(x);
    return rc;
}

static int out_bool(Out *o, int v) { return v ? OUT_LIT(o, "true") : OUT_LIT(o, "false"); }

typedef struct {
    int64_t v[N_BATCH_INTS], horizon, crc, magic;
    int txn, ctl, valid, has_horizon;
    PyObject *codec; /* owned */
    const char *ctext;
    Py_ssize_t clen;
} BatchFields;

/* The batch's header fields; 1 = one is not what the fast printers expect, -1 = error. */
static int batch_fields(PyObject *batch, BatchFields *f) {
    int rc;
    f->codec = NULL;
    f->horizon = 0;
    for (int i = 0; i < N_BATCH_INTS; i++)
        if ((rc = attr_i64(batch, s_batch_ints[i], &f->v[i]))) return rc;
    if ((rc = attr_bool(batch, s_is_transactional, &f->txn)) || (rc = attr_bool(batch, s_is_control, &f->ctl)) ||
        (rc = attr_bool(batch, s_crc_valid, &f->valid)))
        return rc;
    if ((rc = attr_i64(batch, s_crc, &f->crc)) || (rc = attr_i64(batch, s_magic, &f->magic))) return rc;
    PyObject *h = PyObject_GetAttr(batch, s_delete_horizon_ms);
    if (h == NULL) return -1;
    f->has_horizon = h != Py_None;
    Py_DECREF(h);
    if (f->has_horizon && (rc = attr_i64(batch, s_delete_horizon_ms, &f->horizon))) return rc;
    f->codec = PyObject_GetAttr(batch, s_compression);
    if (f->codec == NULL) return -1;
    if (plain_str(f->codec, &f->ctext, &f->clen)) {
        Py_CLEAR(f->codec);
        return 1;
    }
    return 0;
}

/* `"baseOffset":...,"crcValid":...` as batch_fields + json.dumps write it; 1 = the reference does. */
static int out_batch_json(Out *o, PyObject *batch, const char *tt, Py_ssize_t tt_len) {
    BatchFields f;
    int rc = batch_fields(batch, &f);
    if (rc) return rc;
    int64_t *v = f.v;
    static const char *const labels[8] = {
        "\"baseOffset\":", ",\"lastOffset\":", ",\"count\":", ",\"baseSequence\":", ",\"lastSequence\":",
        ",\"producerId\":", ",\"producerEpoch\":", ",\"partitionLeaderEpoch\":",
    };
    rc = 0;
    for (int i = 0; i < 8 && !rc; i++) rc = out_mem(o, labels[i], strlen(labels[i])) || out_i64(o, v[i]);
    rc = rc || OUT_LIT(o, ",\"isTransactional\":") || out_bool(o, f.txn) || OUT_LIT(o, ",\"isControl\":") ||
         out_bool(o, f.ctl) || OUT_LIT(o, ",\"deleteHorizonMs\":");
    if (!rc) rc = f.has_horizon ? out_i64(o, f.horizon) : OUT_LIT(o, "null");
    rc = rc || OUT_LIT(o, ",\"position\":") || out_i64(o, v[8]) || OUT_LIT(o, ",\"timestampType\":") ||
         out_str(o, tt, tt_len) || OUT_LIT(o, ",\"maxTimestamp\":") || out_i64(o, v[9]) ||
         OUT_LIT(o, ",\"size\":") || out_i64(o, v[10]) || OUT_LIT(o, ",\"magic\":") || out_i64(o, f.magic) ||
         OUT_LIT(o, ",\"compressionType\":") || out_str(o, f.ctext, f.clen) || OUT_LIT(o, ",\"crc\":") ||
         out_i64(o, f.crc) || OUT_LIT(o, ",\"crcValid\":") || out_bool(o, f.valid);
    Py_DECREF(f.codec);
    return rc ? -1 : 0;
}

/* The batch line printBatchLevel writes for a v2 batch; 1 = the reference prints it. */
static int out_batch_line(Out *o, PyObject *batch, const char *tt, Py_ssize_t tt_len) {
    BatchFields bf;
    int rc = batch_fields(batch, &bf);
    if (rc) return rc;
    int64_t *v = bf.v, horizon = bf.horizon, crc = bf.crc, magic = bf.magic;
    int txn = bf.txn, ctl = bf.ctl, valid = bf.valid, has_horizon = bf.has_horizon;
    PyObject *codec = bf.codec;
    const char *ctext = bf.ctext;
    Py_ssize_t clen = bf.clen;
    static const char *const labels[N_BATCH_INTS] = {
        "baseOffset: ", " lastOffset: ", " count: ", " baseSequence: ", " lastSequence: ", " producerId: ",
        " producerEpoch: ", " partitionLeaderEpoch: ", NULL, NULL, NULL,
    };
    rc = 0;
    for (int i = 0; i < 8 && !rc; i++) rc = out_mem(o, labels[i], strlen(labels[i])) || out_i64(o, v[i]);
    rc = rc || OUT_LIT(o, " isTransactional: ") || out_bool(o, txn) || OUT_LIT(o, " isControl: ") ||
         out_bool(o, ctl) || OUT_LIT(o, " deleteHorizonMs: ");
    if (!rc) rc = has_horizon ? OUT_LIT(o, "OptionalLong[") || out_i64(o, horizon) || OUT_LIT(o, "]")
                              : OUT_LIT(o, "OptionalLong.empty");
    rc = rc || OUT_LIT(o, " position: ") || out_i64(o, v[8]) || OUT_LIT(o, " ") || out_mem(o, tt, tt_len) ||
         OUT_LIT(o, ": ") || out_i64(o, v[9]) || OUT_LIT(o, " size: ") || out_i64(o, v[10]) ||
         OUT_LIT(o, " magic: ") || out_i64(o, magic) || OUT_LIT(o, " compresscodec: ") || out_mem(o, ctext, clen) || OUT_LIT(o, " crc: ") ||
         out_i64(o, crc) || OUT_LIT(o, " isvalid: ") || out_bool(o, valid) || OUT_LIT(o, "\n");
    Py_DECREF(codec);
    return rc ? -1 : 0;
}

/* dumplog_lines(batch, decoded, hide_topic_id, record_line, batch_line[, errors]) -> the batch line (when
 * batch_line is not None) and the records' lines, each ending "\n": a str, or with `errors` UTF-8 bytes
 * (the reference's lines encoded with that error handler) for a writer that skips the text layer. */
static PyObject *dumplog_lines(PyObject *self, PyObject *args) {
    PyObject *batch, *decoded, *fn, *batch_fn;
    int hide_topic_id;
    const char *errors = NULL;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "OO!pOO|z", &batch, &PyList_Type, &decoded, &hide_topic_id, &fn, &batch_fn,
                          &errors))
        return NULL;
    int fast;
    PyObject *tt;
    if (batch_facts(batch, &fast, &tt)) return NULL;
    Out o = {NULL, 0, 0, errors};
    PyObject *pieces = PyList_New(0);
    if (pieces == NULL) {
        Py_XDECREF(tt);
        return NULL;
    }
    const char *tt_text = NULL;
    Py_ssize_t tt_len = 0;
    if (fast) plain_str(tt, &tt_text, &tt_len);
    if (batch_fn != Py_None) {
        int rc = fast ? out_batch_line(&o, batch, tt_text, tt_len) : 1;
        if (rc == 1) {
            o.len = 0;
            rc = reference_line(&o, pieces, batch_fn, batch);
        }
        if (rc) goto error;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(decoded); i++) {
        PyObject *rec = PyList_GET_ITEM(decoded, i);
        Common c;
        int rc = 1;
        if (fast && !common_record(rec, &c) && c.offset_commit) {
            Py_ssize_t mark = o.len;
            rc = OUT_LIT(&o, "| offset: ") || out_i64(&o, c.offset) || OUT_LIT(&o, " ") ||
                 out_mem(&o, tt_text, tt_len) || OUT_LIT(&o, ": ") || out_i64(&o, c.timestamp) ||
                 OUT_LIT(&o, " keySize: ") || out_i64(&o, c.ksize) || OUT_LIT(&o, " valueSize: ") ||
                 out_i64(&o, c.vsize) || OUT_LIT(&o, " sequence: ") || out_i64(&o, c.seq) ||
                 OUT_LIT(&o, " headerKeys: [] key: {\"type\":\"1\",") ? -1 : 0;
            if (rc == 0) rc = out_key_data(&o, PyTuple_GET_ITEM(c.key, 1));
            if (rc == 0) {
                if (c.value == Py_None) {
                    rc = OUT_LIT(&o, "} payload: <DELETE>\n") ? -1 : 0;
                } else if (small_version(c.value) < 0) {
                    rc = 1;
                } else {
                    rc = OUT_LIT(&o, "} payload: {\"version\":\"") || out_i64(&o, small_version(c.value)) ||
                         OUT_LIT(&o, "\",") ? -1 : 0;
                    if (rc == 0) rc = out_offset_commit(&o, c.value, hide_topic_id);
                    if (rc == 0) rc = OUT_LIT(&o, "}\n") ? -1 : 0;
                }
            }
            if (rc == 1) o.len = mark;
        }
        if (rc < 0 || (rc == 1 && reference_line(&o, pieces, fn, rec))) goto error;
    }
    Py_XDECREF(tt);
    return finish(&o, pieces);
error:
    Py_XDECREF(tt);
    PyMem_Free(o.buf);
    Py_DECREF(pieces);
    return NULL;
}

/* The rest of a record's JSON line after its batch's fields, from `"key":`: tail_fn(rec) renders the key and
 * value (`"key":{...},"value":...`), C closes the line. 1 = not usable here (the reference renders the line). */
static int out_tail(Out *o, PyObject *tail_fn, PyObject *rec) {
    PyObject *tail = PyObject_CallOneArg(tail_fn, rec);
    if (tail == NULL) return -1;
    int rc = 1;
    if (!PyUnicode_Check(tail)) {
        rc = 1;
    } else if (PyUnicode_IS_ASCII(tail)) {
        rc = out_mem(o, (const char *)PyUnicode_1BYTE_DATA(tail), PyUnicode_GET_LENGTH(tail)) ? -1 : 0;
    } else if (o->errors != NULL) {
        PyObject *raw = PyUnicode_AsEncodedString(tail, "utf-8", o->errors);
        rc = raw == NULL || out_mem(o, PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw)) ? -1 : 0;
        Py_XDECREF(raw);
    }
    Py_DECREF(tail);
    if (rc == 0) rc = OUT_LIT(o, "}\n") ? -1 : 0;
    return rc;
}

/* jsonl_lines(batch, decoded, head, batch_fields, record_jsonl, key_value_jsonl[, errors]) -> the records'
 * JSON lines (str, or UTF-8 bytes with `errors`, as dumplog_lines). Other records than offset commits are
 * written by C up to their batch's fields and finished by `key_value_jsonl(rec)`.
 * `head` is `{"file":"...",` and `batch_fields` the batch's fields without braces, both rendered by
 * the reference once per file and batch; `record_jsonl(rec)` renders a record the fast path leaves. */
static PyObject *jsonl_lines(PyObject *self, PyObject *args) {
    PyObject *batch, *decoded, *head, *fields_fn, *fn, *tail_fn;
    const char *errors = NULL;
    if (check_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "OO!UOOO|z", &batch, &PyList_Type, &decoded, &head, &fields_fn, &fn, &tail_fn,
                          &errors))
        return NULL;
    int fast;
    PyObject *tt;
    if (batch_facts(batch, &fast, &tt)) return NULL;
    const char *head_text = NULL, *fields_text = NULL;
    Py_ssize_t head_len = 0, fields_len = 0;
    Out fo = {NULL, 0, 0, NULL};
    PyObject *fields = NULL;
    if (fast) {
        /* The head and the batch's fields, once per batch: in C, or by the reference's fields_fn(batch).
         * Both must be ASCII for the fast path (UTF-8 otherwise: the reference writes the records). */
        const char *tt_text = "";
        Py_ssize_t tt_len = 0;
        plain_str(tt, &tt_text, &tt_len);
        int rc = out_batch_json(&fo, batch, tt_text, tt_len);
        if (rc < 0) goto early_error;
        if (rc == 0) {
            fields_text = fo.buf;
            fields_len = fo.len;
        } else {
            fields = PyObject_CallOneArg(fields_fn, batch);
            if (fields == NULL) goto early_error;
            if (!PyUnicode_Check(fields) || !PyUnicode_IS_ASCII(fields)) {
                fast = 0;
            } else {
                fields_text = (const char *)PyUnicode_1BYTE_DATA(fields);
                fields_len = PyUnicode_GET_LENGTH(fields);
            }
        }
        if (!PyUnicode_IS_ASCII(head)) {
            fast = 0;
        } else {
            head_text = (const char *)PyUnicode_1BYTE_DATA(head);
            head_len = PyUnicode_GET_LENGTH(head);
        }
    }
    Py_XDECREF(tt);
    tt = NULL;
    Out o = {NULL, 0, 0, errors};
    /* a line repeats the head and the batch's fields: room for all of them at once, not doubling up to it */
    if (fast && out_reserve(&o, PyList_GET_SIZE(decoded) * (head_len + fields_len + 256))) goto early_error;
    PyObject *pieces = PyList_New(0);
    if (pieces == NULL) {
        PyMem_Free(o.buf);
        goto early_error;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(decoded); i++) {
        PyObject *rec = PyList_GET_ITEM(decoded, i);
        Common c;
        int rc = 1;
        if (fast && !common_record(rec, &c)) {
            Py_ssize_t mark = o.len;
            rc = out_mem(&o, head_text, head_len) || OUT_LIT(&o, "\"offset\":") || out_i64(&o, c.offset) ||
                 OUT_LIT(&o, ",\"timestamp\":") || out_i64(&o, c.timestamp) || OUT_LIT(&o, ",\"keySize\":") ||
                 out_i64(&o, c.ksize) || OUT_LIT(&o, ",\"valueSize\":") || out_i64(&o, c.vsize) ||
                 OUT_LIT(&o, ",\"sequence\":") || out_i64(&o, c.seq) || OUT_LIT(&o, ",\"headerKeys\":[],") ||
                 out_mem(&o, fields_text, fields_len) || OUT_LIT(&o, ",") ? -1 : 0;
            if (rc == 0 && !c.offset_commit) {
                rc = out_tail(&o, tail_fn, rec);
            } else if (rc == 0) {
                rc = OUT_LIT(&o, "\"key\":{\"type\":1,") ? -1 : out_key_data(&o, PyTuple_GET_ITEM(c.key, 1));
            }
            if (rc == 0 && c.offset_commit) {
                if (c.value == Py_None) {
                    rc = OUT_LIT(&o, "},\"value\":null}\n") ? -1 : 0;
                } else if (small_version(c.value) < 0) {
                    rc = 1;
                } else {
                    rc = OUT_LIT(&o, "},\"value\":{\"version\":") || out_i64(&o, small_version(c.value)) ||
                         OUT_LIT(&o, ",") ? -1 : 0;
                    if (rc == 0) rc = out_offset_commit(&o, c.value, 0);
                    if (rc == 0) rc = OUT_LIT(&o, "}}\n") ? -1 : 0;
                }
            }
            if (rc == 1) o.len = mark;
        }
        if (rc < 0 || (rc == 1 && reference_line(&o, pieces, fn, rec))) goto error;
    }
    PyMem_Free(fo.buf);
    Py_XDECREF(fields);
    return finish(&o, pieces);
error:
    PyMem_Free(o.buf);
    Py_DECREF(pieces);
early_error:
    Py_XDECREF(tt);
    PyMem_Free(fo.buf);
    Py_XDECREF(fields);
    return NULL;
}

/* ---- audit: the short path of Auditor.observe and Replay.apply for plain offset commits ------- */

typedef struct {
    PyObject *commits, *last, *deleted, *offsets, *simple; /* borrowed from the auditor and its replay */
} AuditState;

static int audit_state(PyObject *auditor, PyObject *replay, AuditState *st) {
    PyObject *objs[5];
    PyObject *names[5] = {s_commits, s_last, s_deleted, s_offsets, s_simple};
    for (int i = 0; i < 5; i++) {
        objs[i] = PyObject_GetAttr(i < 3 ? auditor : replay, names[i]);
        if (objs[i] == NULL) {
            for (int j = 0; j < i; j++) Py_DECREF(objs[j]);
            return -1;
        }
        Py_DECREF(objs[i]); /* the auditor and the replay keep them alive */
    }
    st->commits = objs[0];
    st->last = objs[1];
    st->deleted = objs[2];
    st->offsets = objs[3];
    st->simple = objs[4];
    if (!PyDict_CheckExact(st->commits) || !PyDict_CheckExact(st->last) || !PyDict_CheckExact(st->deleted) ||
        !PyDict_CheckExact(st->offsets) || !PySet_CheckExact(st->simple)) {
        PyErr_SetString(PyExc_TypeError, "unexpected auditor state");
        return -1;
    }
    return 0;
}

static int list_add(PyObject *list, Py_ssize_t i, int64_t delta) {
    PyObject *cur = PyList_GET_ITEM(list, i);
    int64_t v = PyLong_AsLongLong(cur);
    if (v == -1 && PyErr_Occurred()) return -1;
    PyObject *x = PyLong_FromLongLong(v + delta);
    if (x == NULL) return -1;
    PyList_SET_ITEM(list, i, x);
    Py_DECREF(cur);
    return 0;
}

/* n commits of group (key + value sizes adding up to size, timestamps lo..hi, the first one's first_obj)
 * in Auditor._commits: [commits, bytes, first ts, last ts], as observe counts them one by one. */
static int count_commits(AuditState *st, PyObject *group, int64_t n, int64_t size, PyObject *first_obj,
                         PyObject *lo_obj, int64_t lo, PyObject *hi_obj, int64_t hi) {
    PyObject *s = PyDict_GetItemWithError(st->commits, group);
    if (s == NULL) {
        if (PyErr_Occurred()) return -1;
        s = PyList_New(4);
        if (s == NULL) return -1;
        PyList_SET_ITEM(s, 0, PyLong_FromLong(0));
        PyList_SET_ITEM(s, 1, PyLong_FromLong(0));
        PyList_SET_ITEM(s, 2, Py_NewRef(first_obj));
        PyList_SET_ITEM(s, 3, Py_NewRef(first_obj));
        int bad = PyDict_SetItem(st->commits, group, s);
        Py_DECREF(s);
        if (bad) return -1;
    }
    if (!PyList_CheckExact(s) || PyList_GET_SIZE(s) != 4) {
        PyErr_SetString(PyExc_TypeError, "unexpected commit counters");
        return -1;
    }
    if (list_add(s, 0, n) || list_add(s, 1, size)) return -1;
    int64_t cur_hi = PyLong_AsLongLong(PyList_GET_ITEM(s, 3)), cur_lo = PyLong_AsLongLong(PyList_GET_ITEM(s, 2));
    if (PyErr_Occurred()) return -1;
    /* first <= last always (both start at the first commit's), so observe's "if above, elif below" is a
     * running maximum and minimum */
    if (hi > cur_hi) {
        PyObject *old = PyList_GET_ITEM(s, 3);
        PyList_SET_ITEM(s, 3, Py_NewRef(hi_obj));
        Py_DECREF(old);
    }
    if (lo < cur_lo) {
        PyObject *old = PyList_GET_ITEM(s, 2);
        PyList_SET_ITEM(s, 2, Py_NewRef(lo_obj));
        Py_DECREF(old);
    }
    return 0;
}

/* One type-1 commit of a batch without a producer id (its key data, value, key bytes, log offset and
 * key + value size): Auditor.observe's short path, then Replay.apply's, in order; -1 on error. Findings
 * (a possible rewind, a commit after a group's deletion) are left to the auditor's own methods. */
static int commit_core(PyObject *auditor, AuditState *st, PyObject *kd, PyObject *value, PyObject *kbytes,
                       PyObject *log_offset, int64_t size, PyObject *entry_type, PyObject *ts_obj, int64_t ts,
                       PyObject **first_ts, PyObject **last_ts, int64_t *records) {
    PyObject *group = PyDict_GetItemWithError(kd, s_group);
    if (group == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "group");
        return -1;
    }
    Py_INCREF(group);
    int rc = -1;
    if (count_commits(st, group, 1, size, ts_obj, ts_obj, ts, ts_obj, ts)) goto done;
    /* the rewind hint: the offset last committed under the same key bytes */
    PyObject *vd = PyTuple_GET_ITEM(value, 1);
    PyObject *new_offset = PyDict_GetItemWithError(vd, s_offset);
    if (new_offset == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "offset");
        goto done;
    }
    PyObject *last = PyDict_GetItemWithError(st->last, kbytes);
    if (last == NULL && PyErr_Occurred()) goto done;
    int check = last == NULL;
    if (!check) {
        check = PyObject_RichCompareBool(last, new_offset, Py_GT);
        if (check < 0) goto done;
    }
    if (PyDict_SetItem(st->last, kbytes, new_offset)) goto done;
    if (check) {
        PyObject *r = PyObject_CallMethodObjArgs(auditor, s_check_rewind, group, kd, new_offset, log_offset, NULL);
        if (r == NULL) goto done;
        Py_DECREF(r);
    }
    if (PyDict_GET_SIZE(st->deleted)) {
        PyObject *gone = PyDict_GetItemWithError(st->deleted, group);
        if (gone == NULL && PyErr_Occurred()) goto done;
        if (gone != NULL) {
            PyObject *r = PyObject_CallMethodObjArgs(auditor, s_recommitted, group, gone, kd, log_offset, NULL);
            if (r == NULL) goto done;
            Py_DECREF(r);
        }
    }
    /* Replay.apply */
    *records += 1;
    if (ts >= 0) {
        if (*first_ts == Py_None) Py_SETREF(*first_ts, Py_NewRef(ts_obj));
        Py_SETREF(*last_ts, Py_NewRef(ts_obj));
    }
    PyObject *committed = PyDict_GetItemWithError(st->offsets, group);
    if (committed == NULL) {
        if (PyErr_Occurred()) goto done;
        committed = PyDict_New();
        if (committed == NULL) goto done;
        int bad = PyDict_SetItem(st->offsets, group, committed) || PySet_Add(st->simple, group);
        Py_DECREF(committed);
        if (bad) goto done;
    }
    PyObject *tp;
    PyObject *topic = PyDict_GetItemWithError(kd, s_topic), *partition = PyDict_GetItemWithError(kd, s_partition);
    if (topic == NULL || partition == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "topic");
        goto done;
    }
    tp = PyTuple_Pack(2, topic, partition);
    if (tp == NULL) goto done;
    PyObject *items[3] = {Py_NewRef(value), Py_NewRef(log_offset), PyLong_FromLong(-1)};
    PyObject *entry = new_tuple_of((PyTypeObject *)entry_type, 3, items);
    if (entry == NULL) {
        Py_DECREF(tp);
        goto done;
    }
    int bad = PyDict_SetItem(committed, tp, entry);
    Py_DECREF(tp);
    Py_DECREF(entry);
    if (bad) goto done;
    rc = 0;
done:
    Py_DECREF(group);
    return rc;
}

/* One decoded type-1 commit (a DecodedRecord) of a batch without a producer id: commit_core. */
static int observe_commit(PyObject *auditor, AuditState *st, PyObject *rec, PyObject *entry_type,
                          PyObject *ts_obj, int64_t ts, PyObject **first_ts, PyObject **last_ts, int64_t *records) {
    PyObject *record = PyTuple_GET_ITEM(rec, 1), *key = PyTuple_GET_ITEM(rec, 2), *value = PyTuple_GET_ITEM(rec, 3);
    int64_t ksize = PyLong_AsLongLong(SLOT(record, R_KEY_SIZE)), vsize = PyLong_AsLongLong(SLOT(record, R_VALUE_SIZE));
    if (PyErr_Occurred()) return -1;
    return commit_core(auditor, st, PyTuple_GET_ITEM(key, 1), value, SLOT(record, R_KEY), SLOT(record, R_OFFSET),
                       ksize + vsize, entry_type, ts_obj, ts, first_ts, last_ts, records);
}

/* Write the replay's record count and timestamps back (before any Python-side observe, and at the end). */
static int replay_sync(PyObject *replay, int64_t *records, PyObject **first_ts, PyObject **last_ts) {
    if (*records) {
        PyObject *cur = PyObject_GetAttr(replay, s_records);
        if (cur == NULL) return -1;
        PyObject *n = PyLong_FromLongLong(*records);
        PyObject *sum = n == NULL ? NULL : PyNumber_Add(cur, n);
        Py_DECREF(cur);
        Py_XDECREF(n);
        if (sum == NULL) return -1;
        int bad = PyObject_SetAttr(replay, s_records, sum);
        Py_DECREF(sum);
        if (bad) return -1;
        *records = 0;
    }
    if (*last_ts != NULL) {
        if (PyObject_SetAttr(replay, s_first_timestamp, *first_ts) ||
            PyObject_SetAttr(replay, s_last_timestamp, *last_ts))
            return -1;
    }
    return 0;
}

/* Whether a Record's slots are what observe_commit reads (a Python-built one may have any unset, NULL):
 * bytes key, exact int64 timestamp (into *ts), offset, key and value sizes. */
static int whole_commit_record(PyObject *record, int64_t *ts) {
    int64_t unused;
    PyObject *key = SLOT(record, R_KEY), *offset = SLOT(record, R_OFFSET);
    return key != NULL && PyBytes_CheckExact(key) && offset != NULL && PyLong_CheckExact(offset) &&
           !exact_i64(SLOT(record, R_TIMESTAMP), ts) && !exact_i64(SLOT(record, R_KEY_SIZE), &unused) &&
           !exact_i64(SLOT(record, R_VALUE_SIZE), &unused);
}

static PyObject *observe_batch(PyObject *self, PyObject *args) {
    PyObject *auditor, *replay, *batch, *decoded, *entry_type;
    if (check_audit()) return NULL;
    if (!PyArg_ParseTuple(args, "OOOO!O!", &auditor, &replay, &batch, &PyList_Type, &decoded, &PyType_Type,
                          &entry_type))
        return NULL;
    PyObject *observe = PyObject_GetAttr(auditor, s_observe);
    if (observe == NULL) return NULL;
    PyObject *pid = PyObject_GetAttr(batch, s_producer_id);
    if (pid == NULL) {
        Py_DECREF(observe);
        return NULL;
    }
    int plain = PyLong_CheckExact(pid) && PyLong_AsLong(pid) == -1;
    Py_DECREF(pid);
    if (PyErr_Occurred()) PyErr_Clear();
    AuditState st;
    PyObject *first_ts = PyObject_GetAttr(replay, s_first_timestamp);
    PyObject *last_ts = PyObject_GetAttr(replay, s_last_timestamp);
    int64_t records = 0;
    if (first_ts == NULL || last_ts == NULL || audit_state(auditor, replay, &st)) goto error;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(decoded); i++) {
        PyObject *rec = PyList_GET_ITEM(decoded, i);
        int fast_one = 0;
        PyObject *ts_obj = NULL;
        int64_t ts = 0;
        if (plain && Py_TYPE(rec) == DecodedType && PyTuple_GET_SIZE(rec) == 7 &&
            PyTuple_GET_ITEM(rec, 3) != Py_None && Py_TYPE(PyTuple_GET_ITEM(rec, 1)) == RecordType) {
            PyObject *key = PyTuple_GET_ITEM(rec, 2), *value = PyTuple_GET_ITEM(rec, 3);
            if (Py_TYPE(key) == KeyType && PyLong_CheckExact(PyTuple_GET_ITEM(key, 0)) &&
                PyLong_AsLong(PyTuple_GET_ITEM(key, 0)) == 1 && PyDict_CheckExact(PyTuple_GET_ITEM(key, 1)) &&
                PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 2 && PyDict_CheckExact(PyTuple_GET_ITEM(value, 1)) &&
                whole_commit_record(PyTuple_GET_ITEM(rec, 1), &ts)) {
                ts_obj = SLOT(PyTuple_GET_ITEM(rec, 1), R_TIMESTAMP);
                fast_one = 1;
            }
        }
        if (fast_one) {
            if (observe_commit(auditor, &st, rec, entry_type, ts_obj, ts, &first_ts, &last_ts, &records)) goto error;
            continue;
        }
        /* everything else: the auditor's own observe, after the replay has what the short path did */
        if (replay_sync(replay, &records, &first_ts, &last_ts)) goto error;
        PyObject *r = PyObject_CallOneArg(observe, rec);
        if (r == NULL) goto error;
        Py_DECREF(r);
        Py_SETREF(first_ts, PyObject_GetAttr(replay, s_first_timestamp));
        Py_SETREF(last_ts, PyObject_GetAttr(replay, s_last_timestamp));
        if (first_ts == NULL || last_ts == NULL || audit_state(auditor, replay, &st)) goto error;
    }
    if (replay_sync(replay, &records, &first_ts, &last_ts)) goto error;
    Py_DECREF(first_ts);
    Py_DECREF(last_ts);
    Py_DECREF(observe);
    Py_RETURN_NONE;
error:
    Py_XDECREF(first_ts);
    Py_XDECREF(last_ts);
    Py_DECREF(observe);
    return NULL;
}

/* ---- audit_batch: plain commit batches straight from the segment's bytes ----------------------- */

/* key bytes -> (key data, (group, (topic, partition))) of the type-1 keys the reference has decoded: what
 * the replay is keyed by, built once per key rather than per commit; bounded like the reference's cache. */
static PyObject *raw_keys;
#define RAW_KEYS_MAX (1 << 16)

/* The entry of raw_keys for kbytes (borrowed), or NULL without an exception when the reference has not
 * decoded the key, or it is not an offset commit's. */
static PyObject *raw_key(PyObject *kbytes) {
    if (raw_keys == NULL && (raw_keys = PyDict_New()) == NULL) return NULL;
    PyObject *hit = PyDict_GetItemWithError(raw_keys, kbytes);
    if (hit != NULL || PyErr_Occurred()) return hit;
    PyObject *key = PyDict_GetItemWithError(key_cache, kbytes);
    if (key == NULL) return NULL;
    if (Py_TYPE(key) != KeyType || PyTuple_GET_SIZE(key) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(key, 0)) ||
        PyLong_AsLong(PyTuple_GET_ITEM(key, 0)) != 1 || !PyDict_CheckExact(PyTuple_GET_ITEM(key, 1)))
        return NULL;
    PyObject *kd = PyTuple_GET_ITEM(key, 1);
    PyObject *group = PyDict_GetItemWithError(kd, s_group), *topic = PyDict_GetItemWithError(kd, s_topic);
    PyObject *partition = PyDict_GetItemWithError(kd, s_partition);
    if (group == NULL || topic == NULL || partition == NULL) return NULL;
    PyObject *entry = Py_BuildValue("(O(O(OO)))", kd, group, topic, partition);
    if (entry == NULL) return NULL;
    if (PyDict_GET_SIZE(raw_keys) >= RAW_KEYS_MAX) PyDict_Clear(raw_keys);
    int bad = PyDict_SetItem(raw_keys, kbytes, entry);
    Py_DECREF(entry);
    return bad ? NULL : entry; /* the dict keeps it */
}

/* ---- CommitTable: the committed offsets of plain commits, kept as bytes until Python needs them ---- */

/* One offset-commit key the C path has seen: its key objects (made once), and, while `pending`, the
 * latest value committed under it by the C path that the replay does not hold yet (its bytes and the
 * scalars the audit reads). The replay's entry for a pending key is stale until its group is settled;
 * the group's dict in Replay.offsets exists already (made when the first key became pending, as the
 * commit would have made it), so the order of groups stays the log's. */
typedef struct {
    uint8_t *key, *val;
    Py_ssize_t klen, vlen, vcap;
    uint64_t hash;
    PyObject *kbytes, *kd, *group_tp;
    int version, pending;
    int32_t gid, next; /* the key's group in Table.groups; the next pending slot of that group, -1 at the end */
    int64_t offset, log_offset, ts;
} Slot;

/* A group with keys in the table: its pending slots in the order they became pending, and its commits
 * taken since the counters were last handed to Auditor._commits (commits, bytes, lowest and highest
 * timestamp: what observe's running counters add up to). */
typedef struct {
    int32_t head, tail;
    PyObject *group;
    int counted;
    int64_t n, size, lo, hi;
} GroupList;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t n, cap;
    int32_t *index; /* open addressing over slots, -1 empty; mask + 1 slots, at least twice n */
    Py_ssize_t mask;
    PyObject *gids; /* group id -> its index in groups */
    GroupList *groups;
    Py_ssize_t ngroups, gcap, npending;
    Py_ssize_t limit; /* keys kept at most (0: TABLE_MAX); tests lower it to reach the overflow path */
} Table;

#define TABLE_MAX (1 << 17) /* keys kept at most; past it the table is settled and emptied */

static void table_clear(Table *t) {
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Slot *s = &t->slots[i];
        PyMem_Free(s->key);
        PyMem_Free(s->val);
        Py_XDECREF(s->kbytes);
        Py_XDECREF(s->kd);
        Py_XDECREF(s->group_tp);
    }
    t->n = 0;
    for (Py_ssize_t g = 0; g < t->ngroups; g++) Py_CLEAR(t->groups[g].group);
    t->ngroups = 0;
    t->npending = 0;
    if (t->gids != NULL) PyDict_Clear(t->gids);
    if (t->index != NULL) memset(t->index, 0xff, (t->mask + 1) * sizeof *t->index);
}

static void table_dealloc(PyObject *self) {
    Table *t = (Table *)self;
    table_clear(t);
    PyMem_Free(t->slots);
    PyMem_Free(t->index);
    PyMem_Free(t->groups);
    Py_XDECREF(t->gids);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *table_pending(PyObject *self, void *closure) {
    return PyLong_FromSsize_t(((Table *)self)->npending);
}

static PyObject *table_get_limit(PyObject *self, void *closure) {
    Table *t = (Table *)self;
    return PyLong_FromSsize_t(t->limit > 0 ? t->limit : TABLE_MAX);
}

static int table_set_limit(PyObject *self, PyObject *value, void *closure) {
    Py_ssize_t limit = value == NULL ? 0 : PyLong_AsSsize_t(value);
    if (limit == -1 && PyErr_Occurred()) return -1;
    if (limit < 0 || limit > TABLE_MAX) {
        PyErr_SetString(PyExc_ValueError, "limit must be between 1 and 131072 (0 or del: the default)");
        return -1;
    }
    ((Table *)self)->limit = limit;
    return 0;
}

static PyGetSetDef table_getset[] = {
    {"pending", table_pending, NULL, "how many keys hold a commit the replay does not have yet", NULL},
    {"limit", table_get_limit, table_set_limit, "keys kept at most before the table is settled and emptied", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "groupctl.log._fastlog.CommitTable",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The latest plain commits per key, held in C until settle() hands them to the replay.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = table_dealloc,
    .tp_getset = table_getset,
};

static uint64_t key_hash(const uint8_t *b, Py_ssize_t n) {
    uint64_t h = 14695981039346656037ull;
    for (Py_ssize_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static Py_ssize_t table_find(Table *t, const uint8_t *b, Py_ssize_t n, uint64_t h) {
    if (t->index == NULL) return -1;
    for (Py_ssize_t i = (Py_ssize_t)(h & t->mask);; i = (i + 1) & t->mask) {
        int32_t at = t->index[i];
        if (at < 0) return -1;
        Slot *s = &t->slots[at];
        if (s->hash == h && s->klen == n && memcmp(s->key, b, n) == 0) return at;
    }
}

static int table_grow(Table *t) {
    Py_ssize_t cap = t->cap ? t->cap * 2 : 1024;
    Slot *slots = PyMem_Realloc(t->slots, cap * sizeof *slots);
    if (slots == NULL) return -1;
    t->slots = slots;
    t->cap = cap;
    Py_ssize_t size = cap * 2;
    int32_t *index = PyMem_Malloc(size * sizeof *index);
    if (index == NULL) return -1;
    memset(index, 0xff, size * sizeof *index);
    for (Py_ssize_t k = 0; k < t->n; k++) {
        Py_ssize_t i = (Py_ssize_t)(t->slots[k].hash & (size - 1));
        while (index[i] >= 0) i = (i + 1) & (size - 1);
        index[i] = (int32_t)k;
    }
    PyMem_Free(t->index);
    t->index = index;
    t->mask = size - 1;
    return 0;
}

/* A new slot for a key raw_key knows (known: its raw_keys entry); its index, or -1 with an exception. */
static Py_ssize_t table_add(Table *t, const uint8_t *b, Py_ssize_t n, uint64_t h, PyObject *kbytes,
                            PyObject *known) {
    if (t->n == t->cap && table_grow(t)) {
        PyErr_NoMemory();
        return -1;
    }
    if (t->gids == NULL && (t->gids = PyDict_New()) == NULL) return -1;
    PyObject *group = PyTuple_GET_ITEM(PyTuple_GET_ITEM(known, 1), 0);
    PyObject *gid_obj = PyDict_GetItemWithError(t->gids, group);
    Py_ssize_t gid;
    if (gid_obj != NULL) {
        gid = PyLong_AsSsize_t(gid_obj);
    } else {
        if (PyErr_Occurred()) return -1;
        if (t->ngroups == t->gcap) {
            Py_ssize_t gcap = t->gcap ? t->gcap * 2 : 256;
            GroupList *groups = PyMem_Realloc(t->groups, gcap * sizeof *groups);
            if (groups == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            t->groups = groups;
            t->gcap = gcap;
        }
        gid = t->ngroups;
        PyObject *g = PyLong_FromSsize_t(gid);
        int bad = g == NULL || PyDict_SetItem(t->gids, group, g);
        Py_XDECREF(g);
        if (bad) return -1;
        memset(&t->groups[gid], 0, sizeof t->groups[gid]);
        t->groups[gid].head = t->groups[gid].tail = -1;
        t->groups[gid].group = Py_NewRef(group);
        t->ngroups++;
    }
    Slot *s = &t->slots[t->n];
    memset(s, 0, sizeof *s);
    s->gid = (int32_t)gid;
    s->next = -1;
    s->key = PyMem_Malloc(n ? n : 1);
    if (s->key == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(s->key, b, n);
    s->klen = n;
    s->hash = h;
    s->kbytes = Py_NewRef(kbytes);
    s->kd = Py_NewRef(PyTuple_GET_ITEM(known, 0));
    s->group_tp = Py_NewRef(PyTuple_GET_ITEM(known, 1));
    Py_ssize_t i = (Py_ssize_t)(h & t->mask);
    while (t->index[i] >= 0) i = (i + 1) & t->mask;
    t->index[i] = (int32_t)t->n;
    return t->n++;
}

/* Hand a group's pending commits to the replay (and their rewind hints to the auditor), in the order its
 * keys became pending: what applying each commit at once would have left, since nothing in Python touched
 * the group meanwhile (the last commit per key wins; new partitions go in in the order of their first
 * commits, as the replay's dict would have them). */
static int settle_group(Table *t, AuditState *st, Py_ssize_t gid, PyObject *entry_type) {
    GroupList *g = &t->groups[gid];
    while (g->head >= 0) {
        Slot *s = &t->slots[g->head];
        PyObject *group = PyTuple_GET_ITEM(s->group_tp, 0), *tp = PyTuple_GET_ITEM(s->group_tp, 1);
        PyObject *committed = PyDict_GetItemWithError(st->offsets, group);
        if (committed == NULL) {
            if (PyErr_Occurred()) return -1;
            committed = PyDict_New();
            if (committed == NULL) return -1;
            int bad = PyDict_SetItem(st->offsets, group, committed) || PySet_Add(st->simple, group);
            Py_DECREF(committed);
            if (bad) return -1;
        }
        PyObject *ts_obj = PyLong_FromLongLong(s->ts);
        if (ts_obj == NULL) return -1;
        PyObject *data = offset_commit_data(s->val, s->vlen, s->version, ts_obj);
        Py_DECREF(ts_obj);
        if (data == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "a pending commit no longer reads");
            return -1;
        }
        PyObject *new_offset = Py_NewRef(PyDict_GetItem(data, s_offset));
        PyObject *vitems[2] = {PyLong_FromLong(s->version), data};
        if (vitems[0] == NULL) {
            Py_DECREF(data);
            Py_DECREF(new_offset);
            return -1;
        }
        PyObject *value = new_tuple_of(ValueType, 2, vitems);
        PyObject *entry = NULL;
        if (value != NULL) {
            PyObject *items[3] = {value, PyLong_FromLongLong(s->log_offset), PyLong_FromLong(-1)};
            entry = new_tuple_of((PyTypeObject *)entry_type, 3, items);
        }
        int bad = entry == NULL || PyDict_SetItem(committed, tp, entry) || PyDict_SetItem(st->last, s->kbytes, new_offset);
        Py_XDECREF(entry);
        Py_DECREF(new_offset);
        if (bad) return -1;
        s->pending = 0;
        g->head = s->next;
        s->next = -1;
        t->npending--;
    }
    g->tail = -1;
    return 0;
}

/* Every group's pending commits handed to the replay and its counters to the auditor (groups is NULL), or
 * the pending commits of the given group ids (the counters are only read at the end: finish, merge). */
static int table_settle(Table *t, PyObject *auditor, PyObject *replay, PyObject *entry_type, PyObject *groups) {
    AuditState st;
    if (groups == NULL) {
        if (audit_state(auditor, replay, &st)) return -1;
        for (Py_ssize_t gid = 0; gid < t->ngroups; gid++) {
            GroupList *g = &t->groups[gid];
            if (settle_group(t, &st, gid, entry_type)) return -1;
            if (!g->counted) continue;
            PyObject *lo = PyLong_FromLongLong(g->lo), *hi = PyLong_FromLongLong(g->hi);
            int bad = lo == NULL || hi == NULL || count_commits(&st, g->group, g->n, g->size, lo, lo, g->lo, hi, g->hi);
            Py_XDECREF(lo);
            Py_XDECREF(hi);
            if (bad) return -1;
            g->counted = 0;
        }
        return 0;
    }
    if (t->npending == 0) return 0;
    if (audit_state(auditor, replay, &st)) return -1;
    PyObject *it = PyObject_GetIter(groups);
    if (it == NULL) return -1;
    PyObject *group;
    while (t->npending && (group = PyIter_Next(it)) != NULL) {
        PyObject *gid = t->gids == NULL ? NULL : PyDict_GetItemWithError(t->gids, group);
        Py_DECREF(group);
        if (gid == NULL && PyErr_Occurred()) break;
        if (gid != NULL && settle_group(t, &st, PyLong_AsSsize_t(gid), entry_type)) break;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* settle(table, auditor, replay, OffsetEntry, groups=None): the replay and the auditor's hints brought up
 * to date, for every group or for the given group ids. */
static PyObject *settle(PyObject *self, PyObject *args) {
    PyObject *auditor, *replay, *entry_type, *groups = Py_None;
    Table *t;
    if (check_audit()) return NULL;
    if (!PyArg_ParseTuple(args, "O!OOO!|O", &TableType, &t, &auditor, &replay, &PyType_Type, &entry_type, &groups))
        return NULL;
    if (table_settle(t, auditor, replay, entry_type, groups == Py_None ? NULL : groups)) return NULL;
    Py_RETURN_NONE;
}

/* One record of a plain batch, read (pass one) before anything is applied (pass two). */
typedef struct {
    const uint8_t *val;
    Py_ssize_t vlen, slot;
    int version;
    int64_t offset, log_offset, ts, size;
} RawCommit;

/* Read every record of a plain batch into rc: 1 when one of them is not a type-1 commit whose key the
 * reference has decoded before and whose value this file reads (the reference reads the batch), 0 when
 * all are, -1 on error. Only the table's key slots may be added here. */
static int raw_commits(Table *t, const uint8_t *b, Py_ssize_t p, Py_ssize_t stop, Py_ssize_t count,
                       int64_t base_offset, int64_t base_ts, int64_t max_ts, int lat, RawCommit *rc) {
    for (Py_ssize_t i = 0; i < count; i++) {
        int64_t size, ts_delta, delta, ksize, vsize, nheaders, offset, timestamp;
        if (read_varint(b, &p, stop, &size)) return 1;
        Py_ssize_t rend = p + size;
        if (size < 6 || size > stop - p) return 1;
        p += 1; /* attributes */
        if (read_varlong(b, &p, rend, &ts_delta) || read_varint(b, &p, rend, &delta) ||
            read_varint(b, &p, rend, &ksize) || ksize < 0 || ksize > rend - p)
            return 1;
        const uint8_t *kb = b + p;
        p += ksize;
        if (read_varint(b, &p, rend, &vsize) || vsize < 2 || vsize > rend - p) return 1;
        const uint8_t *vb = b + p;
        p += vsize;
        if (read_varint(b, &p, rend, &nheaders) || nheaders != 0 || p != rend) return 1;
        offset = java_add(base_offset, delta);
        timestamp = lat ? max_ts : java_add(base_ts, ts_delta);
        uint64_t h = key_hash(kb, ksize);
        Py_ssize_t slot = table_find(t, kb, ksize, h);
        if (slot < 0) {
            PyObject *kbytes = key_bytes(kb, ksize);
            if (kbytes == NULL) return -1;
            PyObject *known = raw_key(kbytes);
            if (known == NULL) {
                Py_DECREF(kbytes);
                return PyErr_Occurred() ? -1 : 1;
            }
            slot = table_add(t, kb, ksize, h, kbytes, known);
            Py_DECREF(kbytes);
            if (slot < 0) return -1;
        }
        CommitFields f;
        int version = be16(vb);
        if (scan_commit(vb, vsize, version, &f)) return 1;
        RawCommit *r = &rc[i];
        r->val = vb;
        r->vlen = vsize;
        r->slot = slot;
        r->version = version;
        r->offset = f.offset;
        r->log_offset = offset;
        r->ts = timestamp;
        r->size = ksize + vsize;
    }
    return p == stop ? 0 : 1;
}

/* Auditor._check_rewind(group, key data, new offset, log offset), or _recommitted(group, gone, key data,
 * log offset) when gone is given. */
static int call_rule(PyObject *auditor, Slot *s, RawCommit *r, PyObject *gone) {
    PyObject *group = PyTuple_GET_ITEM(s->group_tp, 0);
    PyObject *log_offset = PyLong_FromLongLong(r->log_offset);
    PyObject *res = NULL;
    if (log_offset != NULL) {
        if (gone != NULL) {
            res = PyObject_CallMethodObjArgs(auditor, s_recommitted, group, gone, s->kd, log_offset, NULL);
        } else {
            PyObject *new_offset = PyLong_FromLongLong(r->offset);
            if (new_offset != NULL)
                res = PyObject_CallMethodObjArgs(auditor, s_check_rewind, group, s->kd, new_offset, log_offset, NULL);
            Py_XDECREF(new_offset);
        }
    }
    Py_XDECREF(log_offset);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

/* One commit of pass two: Auditor.observe's short path (the counters are counted per run by the caller),
 * its value left pending in the table. A rewind hint on a pending key settles the table first, so the
 * auditor compares with the replay's own entry. */
static int table_commit(Table *t, PyObject *auditor, PyObject *replay, PyObject *entry_type, AuditState *st,
                        RawCommit *r) {
    Slot *s = &t->slots[r->slot];
    int check;
    if (s->pending) {
        check = s->offset > r->offset;
        if (check && settle_group(t, st, s->gid, entry_type)) return -1;
    } else {
        PyObject *last = PyDict_GetItemWithError(st->last, s->kbytes);
        if (last == NULL && PyErr_Occurred()) return -1;
        check = last == NULL;
        if (!check) {
            int overflow = 0;
            long long v = PyLong_CheckExact(last) ? PyLong_AsLongLongAndOverflow(last, &overflow) : 0;
            if (v == -1 && PyErr_Occurred()) return -1;
            if (!PyLong_CheckExact(last) || overflow) {
                PyObject *n = PyLong_FromLongLong(r->offset);
                if (n == NULL) return -1;
                check = PyObject_RichCompareBool(last, n, Py_GT);
                Py_DECREF(n);
                if (check < 0) return -1;
            } else {
                check = v > r->offset;
            }
        }
    }
    if (check && call_rule(auditor, s, r, NULL)) return -1;
    if (PyDict_GET_SIZE(st->deleted)) {
        PyObject *gone = PyDict_GetItemWithError(st->deleted, PyTuple_GET_ITEM(s->group_tp, 0));
        if (gone == NULL && PyErr_Occurred()) return -1;
        if (gone != NULL) {
            Py_INCREF(gone);
            int bad = call_rule(auditor, s, r, gone);
            Py_DECREF(gone);
            if (bad) return -1;
        }
    }
    if (s->vcap < r->vlen) {
        uint8_t *val = PyMem_Realloc(s->val, r->vlen);
        if (val == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        s->val = val;
        s->vcap = r->vlen;
    }
    memcpy(s->val, r->val, r->vlen);
    s->vlen = r->vlen;
    s->version = r->version;
    s->offset = r->offset;
    s->log_offset = r->log_offset;
    s->ts = r->ts;
    if (!s->pending) {
        /* Replay.apply: the group's dict made (and the group marked simple) by its first commit */
        PyObject *group = PyTuple_GET_ITEM(s->group_tp, 0);
        PyObject *committed = PyDict_GetItemWithError(st->offsets, group);
        if (committed == NULL) {
            if (PyErr_Occurred()) return -1;
            committed = PyDict_New();
            if (committed == NULL) return -1;
            int bad = PyDict_SetItem(st->offsets, group, committed) || PySet_Add(st->simple, group);
            Py_DECREF(committed);
            if (bad) return -1;
        }
        GroupList *g = &t->groups[s->gid];
        if (g->tail >= 0) {
            t->slots[g->tail].next = (int32_t)r->slot;
        } else {
            g->head = (int32_t)r->slot;
        }
        g->tail = (int32_t)r->slot;
        s->pending = 1;
        t->npending++;
    }
    return 0;
}

/* What one call of audit_batch or audit_records keeps between the batches it takes: the auditor's and the
 * replay's state, and Replay.apply's record count and timestamps, written back once at the end (nothing
 * the auditor's callbacks run reads them). */
typedef struct {
    AuditState st;
    PyObject *first_ts; /* the replay's first timestamp when the call began */
    int64_t records, first, last;
    int have; /* a record with a timestamp (>= 0) was taken: first and last are set */
} AuditRun;

static int run_begin(AuditRun *run, PyObject *auditor, PyObject *replay) {
    memset(run, 0, sizeof *run);
    if (audit_state(auditor, replay, &run->st)) return -1;
    run->first_ts = PyObject_GetAttr(replay, s_first_timestamp);
    return run->first_ts == NULL ? -1 : 0;
}

/* Write the count and the timestamps back (when ok) and let go of the run; -1 on error. */
static int run_end(AuditRun *run, PyObject *replay, int ok) {
    int bad = !ok;
    if (!bad && run->records) {
        PyObject *cur = PyObject_GetAttr(replay, s_records);
        PyObject *n = PyLong_FromLongLong(run->records);
        PyObject *sum = cur == NULL || n == NULL ? NULL : PyNumber_Add(cur, n);
        bad = sum == NULL || PyObject_SetAttr(replay, s_records, sum);
        Py_XDECREF(cur);
        Py_XDECREF(n);
        Py_XDECREF(sum);
    }
    if (!bad && run->have) {
        PyObject *f = run->first_ts == Py_None ? PyLong_FromLongLong(run->first) : Py_NewRef(run->first_ts);
        PyObject *l = PyLong_FromLongLong(run->last);
        bad = f == NULL || l == NULL || PyObject_SetAttr(replay, s_first_timestamp, f) ||
              PyObject_SetAttr(replay, s_last_timestamp, l);
        Py_XDECREF(f);
        Py_XDECREF(l);
    }
    Py_CLEAR(run->first_ts);
    return bad ? -1 : 0;
}

/* The records of one plain batch (count of them between p and stop): observed, and left pending in the
 * table for the replay, when every one is a commit raw_commits reads; 1 when taken, 0 when declined
 * (nothing of the audit touched), -1 on error. */
static int audit_records(PyObject *auditor, PyObject *replay, PyObject *entry_type, Table *t, AuditRun *run,
                         const uint8_t *b, Py_ssize_t p, Py_ssize_t stop, Py_ssize_t count, int64_t base_offset,
                         int64_t base_ts, int64_t max_ts, int lat) {
    RawCommit small[64], *rc = small;
    if (count <= 0 || count > (1 << 17) || count > (stop - p) / 7) return 0;
    if (t->n + count > (t->limit > 0 ? t->limit : TABLE_MAX)) {
        if (table_settle(t, auditor, replay, entry_type, NULL)) return -1;
        table_clear(t);
    }
    if (count > 64) {
        rc = PyMem_Malloc(count * sizeof *rc);
        if (rc == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    int taken = 0;
    int got = raw_commits(t, b, p, stop, count, base_offset, base_ts, max_ts, lat, rc);
    if (got < 0) {
        taken = -1;
    } else if (got == 0) {
        AuditState *st = &run->st;
        int bad = 0;
        /* the group's counters once per run of its commits (a batch is mostly one group's) */
        Py_ssize_t from = 0;
        int64_t run_size = 0, lo = 0, hi = 0;
        for (Py_ssize_t i = 0; !bad && i <= count; i++) {
            RawCommit *r = i < count ? &rc[i] : NULL;
            PyObject *group = r != NULL ? PyTuple_GET_ITEM(t->slots[r->slot].group_tp, 0) : NULL;
            if (i > 0 && (r == NULL || group != PyTuple_GET_ITEM(t->slots[rc[from].slot].group_tp, 0))) {
                GroupList *g = &t->groups[t->slots[rc[from].slot].gid];
                if (!g->counted) {
                    g->counted = 1;
                    g->n = g->size = 0;
                    g->lo = lo;
                    g->hi = hi;
                }
                g->n += i - from;
                g->size += run_size;
                if (lo < g->lo) g->lo = lo;
                if (hi > g->hi) g->hi = hi;
                from = i;
                run_size = 0;
            }
            if (r == NULL || bad) break;
            if (i == from) lo = hi = r->ts;
            run_size += r->size;
            if (r->ts < lo) lo = r->ts;
            if (r->ts > hi) hi = r->ts;
            if (r->ts >= 0) {
                if (!run->have) run->first = r->ts;
                run->have = 1;
                run->last = r->ts;
            }
            bad = table_commit(t, auditor, replay, entry_type, st, r);
        }
        run->records += count;
        taken = bad ? -1 : 1;
    }
    if (rc != small) PyMem_Free(rc);
    return taken;
}

/* Whether the batch at pos is a plain one audit_records may take (its end in *end): whole, uncompressed,
 * neither transactional nor control, without a producer id (its commits apply at once), CRC good. */
static int plain_batch(const uint8_t *b, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t *end) {
    if (pos < 0 || n - pos < 61) return 0;
    const uint8_t *h = b + pos;
    int32_t length = be32(h + 8);
    int16_t attrs = be16(h + 21);
    if (h[16] != 2 || length < 49 || length > n - pos - 12) return 0;
    if ((attrs & 0x37) != 0 || be64(h + 43) != -1 || be32(h + 53) >= 0) return 0;
    *end = pos + 12 + length;
    return crc32c(h + 21, *end - pos - 21) == (uint32_t)be32(h + 17);
}

#define AUDIT_SPAN (1 << 20) /* bytes taken per call at most: the reader hands mapped pages back between calls */

static int table_arg(PyObject *obj) {
    if (Py_TYPE(obj) == &TableType) return 0;
    PyErr_SetString(PyExc_TypeError, "expected a CommitTable");
    return -1;
}

/* audit_batch(auditor, replay, OffsetEntry, table, data, pos) -> the end of the batches from pos on (up to
 * about AUDIT_SPAN bytes) once every record of them went through Auditor.observe's short path for commits
 * (no Record, Batch or DecodedRecord is built; the values wait in the table for the replay), or None when
 * the batch at pos is anything but a plain batch (plain_batch) of offset commits: the reader then reads it
 * and the auditor observes it as before. The key must be one the reference has decoded (the first batch of
 * each key goes the long way), so the key data dicts are the reference's own. */
static PyObject *audit_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_audit()) return NULL;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "audit_batch takes 6 arguments");
        return NULL;
    }
    if (table_arg(args[3])) return NULL;
    Py_ssize_t pos = PyLong_AsSsize_t(args[5]);
    if (pos == -1 && PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[4], &view, PyBUF_SIMPLE)) return NULL;
    const uint8_t *b = view.buf;
    Py_ssize_t n = view.len, start = pos, end;
    AuditRun run;
    int taken = 0;
    if (plain_batch(b, n, pos, &end)) {
        if (run_begin(&run, args[0], args[1])) {
            run_end(&run, args[1], 0);
            PyBuffer_Release(&view);
            return NULL;
        }
        while (pos - start < AUDIT_SPAN && plain_batch(b, n, pos, &end)) {
            const uint8_t *h = b + pos;
            taken = audit_records(args[0], args[1], args[2], (Table *)args[3], &run, b, pos + 61, end, be32(h + 57),
                                  be64(h), be64(h + 27), be64(h + 35), (be16(h + 21) & 0x08) != 0);
            if (taken <= 0) break;
            pos = end;
        }
        if (run_end(&run, args[1], taken >= 0)) taken = -1;
    }
    PyBuffer_Release(&view);
    if (taken < 0) return NULL;
    if (pos == start) Py_RETURN_NONE;
    return PyLong_FromSsize_t(pos);
}

/* audit_records(auditor, replay, OffsetEntry, table, buf, start, stop, count, base_offset, base_ts, max_ts,
 * log_append_time) -> True once the records of a decompressed batch (one the reader has checked: CRC good,
 * neither transactional nor control, no producer id or sequence) were observed as audit_batch observes
 * them, False to let the reader walk them and the auditor observe them as before. */
static PyObject *audit_records_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_audit()) return NULL;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "audit_records takes 12 arguments");
        return NULL;
    }
    if (table_arg(args[3])) return NULL;
    Py_ssize_t p = PyLong_AsSsize_t(args[5]), stop = PyLong_AsSsize_t(args[6]), count = PyLong_AsSsize_t(args[7]);
    long long base_offset = PyLong_AsLongLong(args[8]), base_ts = PyLong_AsLongLong(args[9]);
    long long max_ts = PyLong_AsLongLong(args[10]);
    int lat = PyObject_IsTrue(args[11]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[4], &view, PyBUF_SIMPLE)) return NULL;
    int taken = 0;
    if (p >= 0 && p <= stop && stop <= view.len) {
        AuditRun run;
        if (run_begin(&run, args[0], args[1])) {
            taken = -1;
            run_end(&run, args[1], 0);
        } else {
            taken = audit_records(args[0], args[1], args[2], (Table *)args[3], &run, view.buf, p, stop, count,
                                  base_offset, base_ts, max_ts, lat);
            if (run_end(&run, args[1], taken >= 0)) taken = -1;
        }
    }
    PyBuffer_Release(&view);
    if (taken < 0) return NULL;
    return PyBool_FromLong(taken);
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Bind the reference's types, caches and fallbacks (once, at import)."},
    {"walk", walk, METH_VARARGS,
     "walk(buf, start, stop, count, base_offset, base_ts, max_ts, log_append_time, base_sequence) -> "
     "the batch's Records, or None to let the reference read (and judge) the batch."},
    {"next_batch", next_batch, METH_VARARGS,
     "next_batch(data, pos) -> (Batch, end) of a plain v2 batch, or None to let the reference read it."},
    {"next_batches", next_batches, METH_VARARGS,
     "next_batches(data, pos, until, decoded) -> (items, end): the plain v2 batches from pos on that start "
     "before until (each (Batch, DecodedRecords) with decoded), or None when the first is not plain."},
    {"decode", decode, METH_VARARGS, "decode(batch, records) -> DecodedRecords, as decode_record gives them."},
    {"set_value_programs", set_value_programs, METH_O,
     "set_value_programs([(type, version, ops, consts), ...]): the group-record value programs (value_programs.py)."},
    {"decode_value", decode_value_py, METH_VARARGS,
     "decode_value(type, value) -> RecordValue as decode_value gives it, or None when the reference is to decode it."},
    {"dumplog_lines", dumplog_lines, METH_VARARGS,
     "dumplog_lines(batch, decoded, hide_topic_id, record_line, batch_line[, errors]) -> the kafka-dump-log "
     "lines of the records (UTF-8 bytes with errors)."},
    {"jsonl_lines", jsonl_lines, METH_VARARGS,
     "jsonl_lines(batch, decoded, head, batch_fields, record_jsonl, key_value_jsonl[, errors]) -> the JSON lines "
     "of the records "
     "(UTF-8 bytes with errors)."},
    {"observe_batch", observe_batch, METH_VARARGS,
     "observe_batch(auditor, replay, batch, decoded, OffsetEntry): Auditor.observe for each record, "
     "plain offset commits without a Python call each."},
    {"audit_batch", (PyCFunction)(void (*)(void))audit_batch, METH_FASTCALL,
     "audit_batch(auditor, replay, OffsetEntry, table, data, pos) -> the end of the plain batches of offset "
     "commits from pos on, observed without building their records (their values pending in the table), or "
     "None to let the reader and observe take the batch at pos."},
    {"audit_records", (PyCFunction)(void (*)(void))audit_records_py, METH_FASTCALL,
     "audit_records(auditor, replay, OffsetEntry, table, buf, start, stop, count, base_offset, base_ts, max_ts, "
     "log_append_time) -> whether the decompressed records of a checked batch were observed as audit_batch does."},
    {"bind_audit", bind_audit, METH_VARARGS,
     "bind_audit(auditor_names, replay_names): the attributes the audit functions read (the classes' "
     "COMPILED_CONTRACT)."},
    {"settle", settle, METH_VARARGS,
     "settle(table, auditor, replay, OffsetEntry): the table's pending commits handed to the replay."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastlog", "groupctl's compiled record loop (see groupctl.log.fast).", -1, methods,
};

PyMODINIT_FUNC PyInit__fastlog(void) {
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "CommitTable", (PyObject *)&TableType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
