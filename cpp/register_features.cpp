// hupai.env's features in the core: one seat's view of N tables written into preallocated buffers, the GIL
// released (features.hpp). Inputs are any buffers (numpy arrays, bytes) of the documented sizes. A raw
// METH_FASTCALL function on the buffer protocol: an environment calls it at every decision, and pybind11's
// argument handling (array type checks, dtype objects) cost more than the encoding itself.
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "features.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// A buffer held for the call, released however it ends.
struct Held {
    Py_buffer view{};
    bool held = false;      // view describes the input
    bool exported = false;  // by the buffer protocol: released at the end
    Held() = default;
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() {
        if (exported) PyBuffer_Release(&view);
    }
};

// `value` as a C-contiguous buffer, held in `out` (InvalidHand set, false, if it is none). Exact bytes are read in
// place, without the buffer protocol's export and release (immutable, and alive for the call: an argument, or an
// item of a sequence the call reads while no Python code can run); exact bytearrays too where the caller copies
// them before any Python code or another thread can run (`copied`: encode_table(s)'s gather), since without an
// export nothing keeps them from being resized. Most of a decision's twenty inputs are one or the other.
bool acquire(PyObject* value, const char* name, Held& out, bool copied = false) {
    const bool bytes = PyBytes_CheckExact(value);
    if (bytes || (copied && PyByteArray_CheckExact(value))) {
        out.view.buf = bytes ? PyBytes_AS_STRING(value) : PyByteArray_AS_STRING(value);
        out.view.len = bytes ? PyBytes_GET_SIZE(value) : PyByteArray_GET_SIZE(value);
        out.view.itemsize = 1;
        out.held = true;
        return true;
    }
    if (PyObject_GetBuffer(value, &out.view, PyBUF_C_CONTIGUOUS) != 0) {
        PyErr_Clear();
        set_invalid_hand(std::string(name) + " must be a contiguous buffer (a numpy array or bytes), got " +
                         Py_TYPE(value)->tp_name);
        return false;
    }
    out.held = out.exported = true;
    return true;
}

// Refused (InvalidHand set, false) unless the held buffer is exactly `items` items of `itemsize` bytes.
bool sized(const Held& buffer, const char* name, Py_ssize_t items, Py_ssize_t itemsize) {
    const Py_ssize_t size = buffer.view.itemsize > 0 ? buffer.view.len / buffer.view.itemsize : 0;
    if (buffer.view.itemsize == itemsize && size == items) return true;
    set_invalid_hand(std::string(name) + " must be " + std::to_string(items) + " contiguous items of " +
                     std::to_string(itemsize) + " byte(s), got " + std::to_string(size) + " of " +
                     std::to_string(buffer.view.itemsize));
    return false;
}

bool input(PyObject* value, const char* name, Py_ssize_t items, Py_ssize_t itemsize, Held& out,
           bool copied = false) {
    return acquire(value, name, out, copied) && sized(out, name, items, itemsize);
}

// A writable C-contiguous 2-d buffer of `format` items (numpy's int8 "b", float32 "f"): its rows and width.
bool output(PyObject* value, const char* name, char format, Held& out, Py_ssize_t& rows, Py_ssize_t& width) {
    const bool ok = PyObject_GetBuffer(value, &out.view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0;
    if (!ok) PyErr_Clear();
    out.held = out.exported = ok;
    const char* f = ok && out.view.format != nullptr ? out.view.format : "";
    if (*f == '@' || *f == '=' || *f == '<') ++f;  // native, standard or little-endian: the same on this core
    if (!ok || out.view.ndim != 2 || f[0] != format || f[1] != '\0' ||
        out.view.itemsize != (format == 'f' ? 4 : 1)) {
        set_invalid_hand(std::string(name) + " must be a writable C-contiguous 2-d array of its dtype");
        return false;
    }
    rows = out.view.shape[0];
    width = out.view.shape[1];
    return true;
}

// The encoders' two outputs, int8 (N, dims.int_size()) and float32 (N, >= dims.table_size): read and checked.
struct Outputs {
    Held ints, floats;
    Py_ssize_t rows = 0, int_width = 0, float_rows = 0, float_width = 0;
};

bool read_outputs(PyObject* ints, PyObject* floats, const FeatureDims& dims, Outputs& out) {
    if (!output(ints, "ints", 'b', out.ints, out.rows, out.int_width) ||
        !output(floats, "floats", 'f', out.floats, out.float_rows, out.float_width))
        return false;
    if (out.int_width != dims.int_size() || out.float_rows != out.rows || out.float_width < dims.table_size) {
        set_invalid_hand("ints must be (N, " + std::to_string(dims.int_size()) + ") and floats (N, >= " +
                         std::to_string(dims.table_size) + ")");
        return false;
    }
    return true;
}

// The layout's sizes (Features._dims: 9 ints) into `dims` (InvalidHand set, false, if they are not).
bool read_dims(PyObject* dims_arg, FeatureDims& dims) {
    if (!PyTuple_Check(dims_arg) || PyTuple_GET_SIZE(dims_arg) != 9) {
        set_invalid_hand("dims: 9 ints");
        return false;
    }
    long long values[9];
    const char* names[9] = {"seats", "kinds", "max_discards", "actions", "table_size", "max_melds",
                            "discard_stride", "shanten_forms", "gold_forms"};
    const long long highs[9] = {8, kNumKinds, 1000, 100000, 100000, 64, 1000, kAllForms, kAllForms};
    for (Py_ssize_t i = 0; i < 9; ++i)
        if (!read_int(PyTuple_GET_ITEM(dims_arg, i), names[i], i >= 7 ? 0 : 1, highs[i], values[i])) return false;
    dims.seats = int(values[0]);
    dims.kinds = int(values[1]);
    dims.max_discards = int(values[2]);
    dims.actions = int(values[3]);
    dims.table_size = int(values[4]);
    dims.max_melds = int(values[5]);
    dims.discard_stride = int(values[6]);
    dims.shanten_forms = unsigned(values[7]);
    dims.gold_forms = unsigned(values[8]);
    if (dims.table_size < 5 + 7 * dims.seats + 1) {
        set_invalid_hand("table_size is too small for the seats");
        return false;
    }
    return true;
}

PyObject* encode_features(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs < 8 || nargs > 10) {
        PyErr_Format(PyExc_TypeError, "encode_features expects 8 to 10 arguments, got %zd", nargs);
        return nullptr;
    }
    PyObject* const tails_arg = nargs > 8 ? args[8] : Py_None;
    PyObject* const at_arg = nargs > 9 ? args[9] : Py_None;
    FeatureDims dims;
    if (!read_dims(args[7], dims)) return nullptr;
    Outputs outputs;
    if (!read_outputs(args[0], args[1], dims, outputs)) return nullptr;
    Held& ints_buffer = outputs.ints;
    Held& floats_buffer = outputs.floats;
    Py_ssize_t rows = outputs.rows;
    const Py_ssize_t int_width = outputs.int_width, float_rows = outputs.float_rows, float_width = outputs.float_width;
    // The tables encoded are rows at.. of the outputs, as many as smalls holds (a caller keeping a pool of rows
    // writes one without slicing it out); every input is checked against that count.
    long long at = 0;
    if (at_arg != Py_None && !read_int(at_arg, "at", 0, rows, at)) return nullptr;
    const int n = dims.seats;
    Held smalls, hands, melds, discards, legal, tails;
    if (!acquire(args[2], "smalls", smalls)) return nullptr;
    if (at_arg != Py_None) rows = smalls.view.len / (4 * dims.smalls());  // with `at`, smalls says how many
    if (at + rows > float_rows) {
        set_invalid_hand("at + the tables given must be at most the rows of ints and floats");
        return nullptr;
    }
    if (!sized(smalls, "smalls", rows * dims.smalls(), 4)) return nullptr;
    // tails: each table's floats after its table block (the rule facts and scores, which Python encodes), as the
    // bytes of float32 values (copied, so no alignment is asked of them); None leaves them zero.
    const Py_ssize_t tail_width = float_width - dims.table_size;
    // The smalls copied once: the discards and legal actions of each table are as many as its smalls say, and the
    // offsets found from them below are the ones encoding uses (another thread writing the caller's array can
    // change answers, never where a table's inputs are read from).
    const int width = dims.smalls();
    std::vector<std::int32_t> small_copy(size_t(rows) * size_t(width));
    if (rows > 0) std::memcpy(small_copy.data(), smalls.view.buf, small_copy.size() * sizeof(std::int32_t));
    std::vector<Py_ssize_t> pile_at(size_t(rows) + 1, 0), legal_at(size_t(rows) + 1, 0);
    for (Py_ssize_t row = 0; row < rows; ++row) {
        const std::int32_t* small = small_copy.data() + row * width;
        Py_ssize_t piles = 0;
        for (int other = 0; other < n; ++other) {
            const std::int32_t length = small[FeatureDims::kSmallsFixed + n + other];
            if (length < 0 || length > dims.discard_stride) {
                set_invalid_hand("table " + std::to_string(row) + ": discard count " + std::to_string(length) +
                                 " is out of range");
                return nullptr;
            }
            piles += length;
        }
        const std::int32_t legal_count = small[9];
        if (legal_count < 0 || legal_count > dims.actions) {
            set_invalid_hand("table " + std::to_string(row) + ": legal action count " + std::to_string(legal_count) +
                             " is out of range");
            return nullptr;
        }
        pile_at[size_t(row) + 1] = pile_at[size_t(row)] + piles;
        legal_at[size_t(row) + 1] = legal_at[size_t(row)] + legal_count;
    }
    if (!input(args[3], "hands", rows * dims.kinds, 1, hands) ||
        !input(args[4], "melds", rows * n * dims.max_melds * FeatureDims::kMeldWidth, 1, melds) ||
        !input(args[5], "discards (the piles' bytes)", pile_at[size_t(rows)], 1, discards) ||
        !input(args[6], "legal (uint16 bytes)", legal_at[size_t(rows)] * 2, 1, legal) ||
        (tails_arg != Py_None && !input(tails_arg, "tails (float32 bytes)", rows * tail_width * 4, 1, tails)))
        return nullptr;
    std::int8_t* const ints = static_cast<std::int8_t*>(ints_buffer.view.buf) + at * int_width;
    float* const floats = static_cast<float*>(floats_buffer.view.buf) + at * float_width;
    std::string error;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS  // holding the GIL would also stall Python's garbage collector
    for (Py_ssize_t row = 0; row < rows && error.empty(); ++row) {
        SeatView view;
        view.smalls = small_copy.data() + row * width;
        view.hand = static_cast<const std::uint8_t*>(hands.view.buf) + row * dims.kinds;
        view.melds = static_cast<const std::int8_t*>(melds.view.buf) + row * n * dims.max_melds * FeatureDims::kMeldWidth;
        view.discards = static_cast<const std::int8_t*>(discards.view.buf) + pile_at[size_t(row)];
        view.legal = static_cast<const std::uint8_t*>(legal.view.buf) + 2 * legal_at[size_t(row)];
        float* out = floats + row * float_width;
        error = encode_seat(dims, view, ints + row * int_width, out, int(float_width));
        if (!error.empty())
            bad = row;
        else if (tails.held && tail_width > 0)
            std::memcpy(out + dims.table_size, static_cast<const char*>(tails.view.buf) + row * tail_width * 4,
                        size_t(tail_width) * sizeof(float));
    }
    Py_END_ALLOW_THREADS
    if (!error.empty()) {
        set_invalid_hand("table " + std::to_string(bad) + ": " + error);
        return nullptr;
    }
    Py_RETURN_NONE;
}

// One table's inputs of encode_tables (state, fixed, hand, piles, made, records, legal, tail) gathered into the
// call's copies, row `row`: every buffer is read here, with the GIL, and only the copies after it is released.
// InvalidHand set, false, if an input is not what it must be.
struct Batch {
    std::vector<std::int32_t> smalls;
    std::vector<std::uint8_t> hands;
    std::vector<std::int8_t> melds;
    std::vector<std::int8_t> discards;
    std::vector<Py_ssize_t> pile_at{0};
    std::vector<std::uint8_t> legal;
    std::vector<Py_ssize_t> legal_at{0};
    std::vector<float> tails;
    std::vector<int> golds;
};

bool refuse(Py_ssize_t row, const std::string& what) {
    set_invalid_hand("table " + std::to_string(row) + ": " + what);
    return false;
}

// A sequence's items (a tuple or a list, read only) as n held buffers.
bool seat_buffers(PyObject* value, const char* name, int n, Held* out, Py_ssize_t row) {
    const bool tuple = PyTuple_Check(value);
    if ((!tuple && !PyList_Check(value)) || PySequence_Fast_GET_SIZE(value) != n)
        return refuse(row, std::string(name) + " must be a tuple or list of " + std::to_string(n) + " buffers");
    for (int other = 0; other < n; ++other) {
        if (!acquire(PySequence_Fast_GET_ITEM(value, other), name, out[other], true)) return false;
        if (out[other].view.itemsize != 1) return refuse(row, std::string(name) + " must be buffers of bytes");
    }
    return true;
}

bool gather(const FeatureDims& dims, PyObject* const* items, Py_ssize_t row, Py_ssize_t tail_width, Batch& batch) {
    const int n = dims.seats;
    Held state, fixed, hand, made, legal, tail, piles[8], records[8];
    // (every input copied into the batch here, before the GIL is released: bytearrays read in place)
    if (!input(items[0], "state (int32 bytes)", TableState::kSize * 4, 1, state, true) ||
        !input(items[1], "fixed (int32 bytes)", (2 + 2 * n) * 4, 1, fixed, true) ||
        !input(items[2], "hand", dims.kinds, 1, hand, true) || !input(items[4], "made", n, 1, made, true) ||
        !seat_buffers(items[3], "piles", n, piles, row) || !seat_buffers(items[5], "records", n, records, row) ||
        !acquire(items[6], "legal (uint16 bytes)", legal, true) ||
        (items[7] != Py_None && !input(items[7], "tail (float32 bytes)", tail_width * 4, 1, tail, true)))
        return false;
    std::int32_t values[TableState::kSize];
    std::memcpy(values, state.view.buf, sizeof values);
    std::int32_t fixed_values[2 + 2 * 8];
    std::memcpy(fixed_values, fixed.view.buf, size_t(2 + 2 * n) * sizeof(std::int32_t));
    const std::int32_t legal_count = values[9];
    if (legal_count < 0 || legal_count > dims.actions || legal.view.len != 2 * Py_ssize_t(legal_count))
        return refuse(row, "legal must be the uint16 bytes of as many indices as the state says (0.." +
                               std::to_string(dims.actions) + ")");
    TableState table;
    table.state = values;
    table.fixed = fixed_values;
    table.hand = static_cast<const std::uint8_t*>(hand.view.buf);
    table.made = static_cast<const std::uint8_t*>(made.view.buf);
    for (int other = 0; other < n; ++other) {
        table.piles[other] = static_cast<const std::uint8_t*>(piles[other].view.buf);
        table.pile_sizes[other] = long(piles[other].view.len);
        table.records[other] = static_cast<const std::uint8_t*>(records[other].view.buf);
        table.record_sizes[other] = long(records[other].view.len);
    }
    const size_t width = size_t(dims.smalls()), meld_block = size_t(n * dims.max_melds * FeatureDims::kMeldWidth);
    batch.smalls.resize(batch.smalls.size() + width);
    batch.hands.resize(batch.hands.size() + size_t(dims.kinds));
    batch.melds.resize(batch.melds.size() + meld_block);
    const size_t piled = batch.discards.size();
    batch.discards.resize(piled + size_t(n) * size_t(dims.discard_stride));
    long count = 0;
    int gold = -1;
    const std::string error =
        table_inputs(dims, table, batch.smalls.data() + batch.smalls.size() - width,
                     batch.hands.data() + batch.hands.size() - size_t(dims.kinds),
                     batch.melds.data() + batch.melds.size() - meld_block, batch.discards.data() + piled, count,
                     gold);
    if (!error.empty()) return refuse(row, error);
    batch.golds.push_back(gold);
    batch.discards.resize(piled + size_t(count));
    batch.pile_at.push_back(Py_ssize_t(batch.discards.size()));
    const auto* indices = static_cast<const std::uint8_t*>(legal.view.buf);
    batch.legal.insert(batch.legal.end(), indices, indices + legal.view.len);
    batch.legal_at.push_back(Py_ssize_t(batch.legal.size() / 2));
    const size_t at = batch.tails.size();
    batch.tails.resize(at + size_t(tail_width), 0.0f);
    if (tail.held && tail_width > 0) std::memcpy(batch.tails.data() + at, tail.view.buf, size_t(tail_width) * 4);
    return true;
}

// encode_tables(ints, floats, dims, at, tables) (`many`) or encode_table(ints, floats, dims, at, state, fixed, hand,
// piles, made, records, legal, tail): see kFeatureMethods.
PyObject* encode_rows(PyObject* const* args, Py_ssize_t nargs, bool many) {
    if (nargs != (many ? 5 : 12)) {
        PyErr_Format(PyExc_TypeError, many ? "encode_tables expects 5 arguments, got %zd"
                                           : "encode_table expects 12 arguments, got %zd", nargs);
        return nullptr;
    }
    FeatureDims dims;
    if (!read_dims(args[2], dims)) return nullptr;
    Outputs outputs;
    if (!read_outputs(args[0], args[1], dims, outputs)) return nullptr;
    Held& ints_buffer = outputs.ints;
    Held& floats_buffer = outputs.floats;
    const Py_ssize_t rows = outputs.rows, int_width = outputs.int_width, float_width = outputs.float_width;
    PyObject* const tables = many ? args[4] : nullptr;
    if (tables != nullptr && !PyTuple_Check(tables) && !PyList_Check(tables)) {
        set_invalid_hand("tables must be a tuple or list of tables' inputs");
        return nullptr;
    }
    const Py_ssize_t count = tables != nullptr ? PySequence_Fast_GET_SIZE(tables) : 1;
    long long at = 0;
    if (!read_int(args[3], "at", 0, rows, at)) return nullptr;
    if (at + count > rows) {
        set_invalid_hand("at + the tables given must be at most the rows of ints and floats");
        return nullptr;
    }
    const Py_ssize_t tail_width = float_width - dims.table_size;
    // The copies' vectors are kept between calls (a thread's own: their capacity stays, so a decision's call
    // allocates nothing); a call made while they are in use (none can be: nothing here runs Python) gets its own.
    thread_local Batch kept;
    thread_local bool busy = false;
    Batch fresh;
    Batch& batch = busy ? fresh : kept;
    struct Using {
        bool& flag;
        bool mine;
        ~Using() { if (mine) flag = false; }
    } using_kept{busy, !busy};
    busy = true;
    batch.smalls.clear();
    batch.hands.clear();
    batch.melds.clear();
    batch.discards.clear();
    batch.pile_at.assign(1, 0);
    batch.legal.clear();
    batch.legal_at.assign(1, 0);
    batch.tails.clear();
    batch.golds.clear();
    batch.smalls.reserve(size_t(count * dims.smalls()));
    batch.hands.reserve(size_t(count * dims.kinds));
    batch.melds.reserve(size_t(count * dims.seats * dims.max_melds * FeatureDims::kMeldWidth));
    batch.discards.reserve(size_t(count * dims.seats * dims.discard_stride));
    batch.pile_at.reserve(size_t(count + 1));
    batch.legal_at.reserve(size_t(count + 1));
    batch.tails.reserve(size_t(count * tail_width));
    for (Py_ssize_t row = 0; row < count; ++row) {
        PyObject* const* items = args + 4;
        if (tables != nullptr) {
            PyObject* one = PySequence_Fast_GET_ITEM(tables, row);
            if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) != 8) {
                set_invalid_hand("table " + std::to_string(row) +
                                 ": (state, fixed, hand, piles, made, records, legal, tail) expected");
                return nullptr;
            }
            items = &PyTuple_GET_ITEM(one, 0);
        }
        if (!gather(dims, items, row, tail_width, batch)) return nullptr;
    }
    std::int8_t* const ints = static_cast<std::int8_t*>(ints_buffer.view.buf) + at * int_width;
    float* const floats = static_cast<float*>(floats_buffer.view.buf) + at * float_width;
    const int width = dims.smalls(), meld_block = dims.seats * dims.max_melds * FeatureDims::kMeldWidth;
    std::string error;
    Py_ssize_t bad = -1;
    auto encode = [&]() {
        for (Py_ssize_t row = 0; row < count && error.empty(); ++row) {
            SeatView view;
            view.smalls = batch.smalls.data() + row * width;
            view.hand = batch.hands.data() + row * dims.kinds;
            view.melds = batch.melds.data() + row * meld_block;
            view.discards = batch.discards.data() + batch.pile_at[size_t(row)];
            view.legal = batch.legal.data() + 2 * batch.legal_at[size_t(row)];
            view.gold = batch.golds[size_t(row)];
            float* out = floats + row * float_width;
            error = encode_seat(dims, view, ints + row * int_width, out, int(float_width));
            if (!error.empty())
                bad = row;
            else if (tail_width > 0)
                std::memcpy(out + dims.table_size, batch.tails.data() + row * tail_width,
                            size_t(tail_width) * sizeof(float));
        }
    };
    if (count > 1) {  // many tables: the GIL released (one table's encoding costs less than releasing it)
        Py_BEGIN_ALLOW_THREADS
        encode();
        Py_END_ALLOW_THREADS
    } else {
        encode();
    }
    if (!error.empty()) {
        set_invalid_hand("table " + std::to_string(bad) + ": " + error);
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject* encode_tables(PyObject*, PyObject* const* args, Py_ssize_t nargs) { return encode_rows(args, nargs, true); }

PyObject* encode_table(PyObject*, PyObject* const* args, Py_ssize_t nargs) { return encode_rows(args, nargs, false); }

PyMethodDef kFeatureMethods[] = {
    {"encode_features", as_method(encode_features), METH_FASTCALL,
     "encode_features($module, ints, floats, smalls, hands, melds, discards, legal, dims, tails=None, at=None, /)"
     "\n--\n\n"
     "One seat's agent features of N tables into ints (int8[N, I]) and floats (float32[N, F])\n"
     "(hupai.env.features); the GIL released. tails: the bytes of float32[N, F - table_size], copied after each\n"
     "table block; at: the first row written (then N is what smalls holds). discards: each table's piles one\n"
     "after another, legal: each table's legal action indices as native uint16 (the counts are in smalls)."},
    {"encode_tables", as_method(encode_tables), METH_FASTCALL,
     "encode_tables($module, ints, floats, dims, at, tables, /)\n--\n\n"
     "One seat's agent features of each table into rows at.. of ints (int8[N, I]) and floats (float32[N, F]),\n"
     "read from the table's own buffers (hupai.env.Encoder.encode_game); the GIL released for more than one table.\n"
     "tables: a tuple or list of (state, fixed, hand, piles, made, records, legal, tail). state: int32 bytes\n"
     "(features.hpp TableState::kSize), fixed: int32 bytes (the hand size with no melds, flags (bits 8..15: the\n"
     "gold + 1, for dims' gold_forms), winds, sizes), hand: the seat's counts (its own hand only), piles: per seat\n"
     "its pile buffer, made: per seat the pile bytes in use, records: per seat its meld (6-byte) or group (7-byte)\n"
     "records, legal: the legal indices as native uint16 bytes, tail: float32 bytes of the rule facts and scores\n"
     "(None: zeros). Every input is read and checked before anything is written."},
    {"encode_table", as_method(encode_table), METH_FASTCALL,
     "encode_table($module, ints, floats, dims, at, state, fixed, hand, piles, made, records, legal, tail, /)\n--\n\n"
     "encode_tables of one table, its inputs given as they are (no tuple): row `at` of ints and floats."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void register_features(py::module_& m) { add_functions(m, kFeatureMethods); }

}  // namespace hupai::binding
