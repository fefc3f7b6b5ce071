// A snapshot's action list (hupai.game.validate): every action's shape checked in one pass over the JSON data,
// and each seat's discards counted; and a compact mahjong table's tile strings decoded and checked in one call
// (hupai.game.state.compact). Reads only: nothing is written but the returned values.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <climits>
#include <cstring>
#include <vector>

#include "pyargs.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// Exactly an int in low..high: what JSON gives (a bool, an int subclass or a float is not one).
bool plain_int(PyObject* value, long long low, long long high) {
    if (!PyLong_CheckExact(value)) return false;
    int overflow = 0;
    const long long parsed = PyLong_AsLongLongAndOverflow(value, &overflow);
    return overflow == 0 && parsed >= low && parsed <= high;
}

// Two exact strs with the same characters (no error possible: both are checked exact strs).
bool same_str(PyObject* a, PyObject* b) {
    if (a == b) return true;
    const Py_ssize_t length = PyUnicode_GET_LENGTH(a);
    return length == PyUnicode_GET_LENGTH(b) && PyUnicode_KIND(a) == PyUnicode_KIND(b) &&
           std::memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b),
                       static_cast<std::size_t>(length) * PyUnicode_KIND(a)) == 0;
}

// The index in `choices` (a tuple of exact strs, checked by the caller) of the exact str `text`, or -1. The
// identity pass first: an in-process snapshot holds the actions' own (interned) strs.
Py_ssize_t index_of(PyObject* text, PyObject* choices) {
    if (!PyUnicode_CheckExact(text)) return -1;
    const Py_ssize_t count = PyTuple_GET_SIZE(choices);
    for (Py_ssize_t i = 0; i < count; ++i)
        if (PyTuple_GET_ITEM(choices, i) == text) return i;
    for (Py_ssize_t i = 0; i < count; ++i)
        if (same_str(text, PyTuple_GET_ITEM(choices, i))) return i;
    return -1;
}

bool one_of(PyObject* text, PyObject* choices) { return index_of(text, choices) >= 0; }

// The index of the ASCII name `name` in `choices` (exact strs), or -1.
Py_ssize_t named(const py::tuple& choices, const char* name) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(choices.ptr()); ++i)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(choices.ptr(), i), name) == 0) return i;
    return -1;
}

void check_strs(const py::tuple& values, const char* name) {
    for (const auto value : values)
        if (!PyUnicode_CheckExact(value.ptr())) throw InvalidHand(std::string(name) + " must be a tuple of strs");
}

// The discards per seat of `actions` (a list or tuple of [kind, seat, tile, tiles, flag]), or None if any
// action is not of that shape with kind in `kinds`, seat in 0..players-1, tile in -1..33, at most 4 tiles in
// 0..33, a flag of at most `max_flag` characters (one of `kong_flags` for a kong).
py::object compact_actions(py::handle actions, int players, const py::tuple& kinds, const py::tuple& kong_flags,
                           Py_ssize_t max_flag) {
    if (players < 1 || players > 8) throw InvalidHand("players must be 1..8");
    check_strs(kinds, "kinds");
    check_strs(kong_flags, "kong_flags");
    const Py_ssize_t kong = named(kinds, "kong"), discard = named(kinds, "discard");
    PyObject* list = actions.ptr();
    if (!PyList_CheckExact(list) && !PyTuple_CheckExact(list)) return py::none();
    std::vector<long long> discards(static_cast<std::size_t>(players), 0);
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(list);
    for (Py_ssize_t at = 0; at < size; ++at) {
        PyObject* action = PySequence_Fast_GET_ITEM(list, at);
        if (!PyList_Check(action) && !PyTuple_Check(action)) return py::none();
        if (PySequence_Fast_GET_SIZE(action) != 5) return py::none();
        PyObject** field = PySequence_Fast_ITEMS(action);
        const Py_ssize_t kind = index_of(field[0], kinds.ptr());
        if (kind < 0 || !plain_int(field[1], 0, players - 1) || !plain_int(field[2], -1, 33)) return py::none();
        PyObject* tiles = field[3];
        if (!PyList_CheckExact(tiles) && !PyTuple_CheckExact(tiles)) return py::none();
        const Py_ssize_t count = PySequence_Fast_GET_SIZE(tiles);
        if (count > 4) return py::none();
        for (Py_ssize_t i = 0; i < count; ++i)
            if (!plain_int(PySequence_Fast_GET_ITEM(tiles, i), 0, 33)) return py::none();
        PyObject* flag = field[4];
        if (!PyUnicode_CheckExact(flag) || PyUnicode_GET_LENGTH(flag) > max_flag) return py::none();
        if (kind == kong && !one_of(flag, kong_flags.ptr())) return py::none();
        if (kind == discard) ++discards[static_cast<std::size_t>(PyLong_AsLong(field[1]))];
    }
    return py::cast(discards);
}


// ------------------------------------------------------------------ a compact table's tile strings

// A tile character of the compact format: 0..9 for kinds 0..9, a..x for 10..33; 255 for anything else.
constexpr std::array<std::uint8_t, 256> kTileOf = [] {
    std::array<std::uint8_t, 256> table{};
    for (auto& value : table) value = 255;
    for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c - '0');
    for (int c = 'a'; c <= 'x'; ++c) table[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c - 'a' + 10);
    return table;
}();

constexpr int kKinds = 34;

// An exact, ASCII str's characters and length, or false (a str subclass, a non-ASCII or a non-compact str).
bool ascii_chars(PyObject* text, const std::uint8_t*& chars, Py_ssize_t& length) {
    if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_COMPACT_ASCII(text)) return false;
    chars = static_cast<const std::uint8_t*>(PyUnicode_DATA(text));
    length = PyUnicode_GET_LENGTH(text);
    return true;
}

// An exact bytes object's data (the core's own arguments: the caller builds them), else TypeError.
bool bytes_arg(PyObject* value, const char* name, Py_ssize_t length, const std::uint8_t*& data, Py_ssize_t& size) {
    if (!PyBytes_CheckExact(value) || (length >= 0 && PyBytes_GET_SIZE(value) != length)) {
        PyErr_Format(PyExc_TypeError, "compact_tiles: %s must be bytes%s", name, length >= 0 ? " of the right size" : "");
        return false;
    }
    data = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(value));
    size = PyBytes_GET_SIZE(value);
    return true;
}

// A tuple of `count` bytes objects, the i-th of lengths[i] bytes from `data` (consecutive); nullptr on error.
PyObject* bytes_tuple(const std::vector<std::uint8_t>& data, const std::vector<Py_ssize_t>& lengths) {
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(lengths.size()));
    if (out == nullptr) return nullptr;
    std::size_t at = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        PyObject* item = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(data.data()) + at, lengths[i]);
        if (item == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), item);
        at += static_cast<std::size_t>(lengths[i]);
    }
    return out;
}

// compact_tiles(hands, discards, missed, wall, head, tail, extra, copies, made, claimed, melds, low, high
// [, stand_in]): see the docstring below. Returns None on anything it does not accept: the caller's Python check
// then names it.
PyObject* compact_tiles(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 13 && nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "compact_tiles expects 13 or 14 arguments");
        return nullptr;
    }
    PyObject* hands = args[0];
    PyObject* discards = args[1];
    PyObject* missed = args[2];
    // -- the caller's own arguments first (TypeError: a bug of the caller, never of the snapshot)
    const std::uint8_t *wall, *extra, *copies, *made, *claimed, *melds, *low, *high;
    Py_ssize_t wall_size = 0, extra_size = 0, size = 0;
    if (!bytes_arg(args[3], "wall", -1, wall, wall_size) || !bytes_arg(args[6], "extra", -1, extra, extra_size) ||
        !bytes_arg(args[7], "copies", kKinds, copies, size))
        return nullptr;
    long long head = 0, tail = 0;
    if (!read_int(args[4], "head", 0, wall_size, head, PyExc_TypeError) ||
        !read_int(args[5], "tail", head, wall_size, tail, PyExc_TypeError))
        return nullptr;
    Py_ssize_t n = 0;  // the seats: made's length
    if (!bytes_arg(args[8], "made", -1, made, n) || !bytes_arg(args[9], "claimed", n, claimed, size) ||
        !bytes_arg(args[10], "melds", n, melds, size) || !bytes_arg(args[11], "low", n, low, size) ||
        !bytes_arg(args[12], "high", n, high, size))
        return nullptr;
    if (n < 1 || n > 8) {
        PyErr_SetString(PyExc_TypeError, "compact_tiles: 1..8 seats");
        return nullptr;
    }
    // A chow may record a tile of kind `physical` as kind `recorded` (Yunxiao's 白板 as the gold's face): up to
    // `chows` tiles then count as `recorded` in `extra` but are `physical` ones.
    int recorded = -1, physical = -1, chows = 0;
    if (nargs == 14) {
        const std::uint8_t* stand_in = nullptr;
        if (!bytes_arg(args[13], "stand_in", -1, stand_in, size)) return nullptr;
        if ((size != 0 && size != 3) || (size == 3 && (stand_in[0] >= kKinds || stand_in[1] >= kKinds))) {
            PyErr_SetString(PyExc_TypeError, "compact_tiles: stand_in must be b'' or bytes (recorded, physical, chows)"
                                             " with kinds 0..33");
            return nullptr;
        }
        if (size == 3) {
            recorded = stand_in[0];
            physical = stand_in[1];
            chows = stand_in[2];
        }
    }
    // -- the snapshot's own values: None for anything off
    if (!PyList_CheckExact(hands) || PyList_GET_SIZE(hands) != n || !PyList_CheckExact(discards) ||
        PyList_GET_SIZE(discards) != n || !PyList_CheckExact(missed) || PyList_GET_SIZE(missed) != n)
        Py_RETURN_NONE;

    // -- decoded into private copies, then checked: nothing below calls back into Python
    std::array<int, kKinds> count{};
    std::vector<std::uint8_t> hand_data(static_cast<std::size_t>(n * kKinds));
    std::vector<Py_ssize_t> hand_lengths(static_cast<std::size_t>(n), kKinds), pile_lengths, missed_lengths;
    std::vector<std::uint8_t> pile_data, missed_data;
    for (Py_ssize_t s = 0; s < n; ++s) {
        const std::uint8_t* chars = nullptr;
        Py_ssize_t length = 0;
        if (!ascii_chars(PyList_GET_ITEM(hands, s), chars, length) || length != kKinds) Py_RETURN_NONE;
        int held = 3 * melds[s];
        for (Py_ssize_t k = 0; k < kKinds; ++k) {
            const std::uint8_t value = kTileOf[chars[k]];
            if (value == 255) Py_RETURN_NONE;
            hand_data[static_cast<std::size_t>(s * kKinds + k)] = value;
            count[static_cast<std::size_t>(k)] += value;
            held += value;
        }
        if (held < low[s] || held > high[s]) Py_RETURN_NONE;

        if (!ascii_chars(PyList_GET_ITEM(discards, s), chars, length) || made[s] < claimed[s] ||
            length != made[s] - claimed[s])
            Py_RETURN_NONE;
        pile_lengths.push_back(length);
        for (Py_ssize_t i = 0; i < length; ++i) {
            const std::uint8_t tile = kTileOf[chars[i]];
            if (tile == 255) Py_RETURN_NONE;
            pile_data.push_back(tile);
            ++count[tile];
        }

        if (!ascii_chars(PyList_GET_ITEM(missed, s), chars, length) || length > kKinds) Py_RETURN_NONE;
        missed_lengths.push_back(length);
        int last = -1;
        for (Py_ssize_t i = 0; i < length; ++i) {
            const std::uint8_t tile = kTileOf[chars[i]];
            if (tile == 255 || tile <= last) Py_RETURN_NONE;  // sorted, no repeats
            last = tile;
            missed_data.push_back(tile);
        }
    }
    // -- tile conservation: the wall's live range, the hands, the piles and the caller's other places
    for (Py_ssize_t i = head; i < tail; ++i) {
        if (wall[i] >= kKinds) Py_RETURN_NONE;
        ++count[wall[i]];
    }
    for (Py_ssize_t i = 0; i < extra_size; ++i) {
        if (extra[i] >= kKinds) Py_RETURN_NONE;
        ++count[extra[i]];
    }
    // (as the Python check counts it: up to `chows` tiles move from the recorded kind to the physical one)
    if (recorded >= 0 && recorded != physical) {
        const int moved = copies[physical] - count[static_cast<std::size_t>(physical)];
        if (moved < 0 || moved > chows) Py_RETURN_NONE;
        count[static_cast<std::size_t>(physical)] += moved;
        count[static_cast<std::size_t>(recorded)] -= moved;
    }
    for (int k = 0; k < kKinds; ++k)
        if (count[static_cast<std::size_t>(k)] != copies[k]) Py_RETURN_NONE;

    PyObject* out = PyTuple_New(3);
    if (out == nullptr) return nullptr;
    PyObject* parts[3] = {bytes_tuple(hand_data, hand_lengths), bytes_tuple(pile_data, pile_lengths),
                          bytes_tuple(missed_data, missed_lengths)};
    for (int i = 0; i < 3; ++i) {
        if (parts[i] == nullptr) {
            for (int j = 0; j < 3; ++j) Py_XDECREF(parts[j]);
            Py_DECREF(out);
            return nullptr;
        }
    }
    for (int i = 0; i < 3; ++i) PyTuple_SET_ITEM(out, i, parts[i]);
    return out;
}

// ------------------------------------------------------------------ plain JSON and bounded ints

// An exact int in -2**63 .. 2**64-1 (what check_free_json accepts of free JSON).
bool int_64(PyObject* value) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow == 0) return true;
    if (overflow < 0) return false;
    PyLong_AsUnsignedLongLong(value);
    if (PyErr_Occurred() == nullptr) return true;
    PyErr_Clear();
    return false;
}

// Whether `value` (at `depth`) is plain JSON within the bounds, counting its values into `nodes`. Recursion is
// bounded by `max_depth` (the caller's, at most 64). Reads only: PyDict_Next and the list's items, no Python code.
bool plain_json_at(PyObject* value, int depth, int max_depth, long long& nodes, long long max_nodes) {
    if (++nodes > max_nodes || depth > max_depth) return false;
    if (PyUnicode_CheckExact(value) || PyFloat_CheckExact(value) || PyBool_Check(value) || value == Py_None)
        return true;
    if (PyLong_CheckExact(value)) return int_64(value);
    if (PyList_CheckExact(value)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); ++i)
            if (!plain_json_at(PyList_GET_ITEM(value, i), depth + 1, max_depth, nodes, max_nodes)) return false;
        return true;
    }
    if (PyDict_CheckExact(value)) {
        Py_ssize_t at = 0;
        PyObject *key = nullptr, *item = nullptr;
        while (PyDict_Next(value, &at, &key, &item)) {
            if (!PyUnicode_CheckExact(key)) return false;
            if (!plain_json_at(item, depth + 1, max_depth, nodes, max_nodes)) return false;
        }
        return true;
    }
    return false;
}

// The (value, max_depth, max_nodes) arguments of plain_json and json_copy: false with a TypeError set if they
// are not three, or the bounds are not ints within 0..64 and 0..2**40.
bool json_bounds(PyObject* const* args, Py_ssize_t nargs, const char* name, long long& max_depth,
                 long long& max_nodes) {
    if (nargs == 3 && read_int(args[1], "max_depth", 0, 64, max_depth, PyExc_TypeError) &&
        read_int(args[2], "max_nodes", 0, 1LL << 40, max_nodes, PyExc_TypeError))
        return true;
    if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s expects 3 arguments", name);
    return false;
}

// plain_json(value, max_depth, max_nodes): see the docstring below.
PyObject* plain_json(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    long long max_depth = 0, max_nodes = 0;
    if (!json_bounds(args, nargs, "plain_json", max_depth, max_nodes)) return nullptr;
    long long nodes = 0;
    return PyBool_FromLong(plain_json_at(args[0], 0, static_cast<int>(max_depth), nodes, max_nodes));
}

// A copy of plain JSON `value` (new dicts and lists, the scalars shared: they are immutable), or nullptr without
// an error set if it is not plain JSON within the bounds (as plain_json_at), or nullptr with an error set if
// memory ran out. Writes only into the new containers it returns.
PyObject* json_copy_at(PyObject* value, int depth, int max_depth, long long& nodes, long long max_nodes) {
    if (++nodes > max_nodes || depth > max_depth) return nullptr;
    if (PyUnicode_CheckExact(value) || PyFloat_CheckExact(value) || PyBool_Check(value) || value == Py_None ||
        (PyLong_CheckExact(value) && int_64(value))) {
        Py_INCREF(value);
        return value;
    }
    if (PyList_CheckExact(value)) {
        const Py_ssize_t size = PyList_GET_SIZE(value);
        PyObject* out = PyList_New(size);
        if (out == nullptr) return nullptr;
        for (Py_ssize_t i = 0; i < size; ++i) {
            // (the source list cannot change meanwhile: nothing here runs Python code)
            PyObject* item = json_copy_at(PyList_GET_ITEM(value, i), depth + 1, max_depth, nodes, max_nodes);
            if (item == nullptr) {
                Py_DECREF(out);
                return nullptr;
            }
            PyList_SET_ITEM(out, i, item);
        }
        return out;
    }
    if (PyDict_CheckExact(value)) {
        PyObject* out = PyDict_New();
        if (out == nullptr) return nullptr;
        Py_ssize_t at = 0;
        PyObject *key = nullptr, *item = nullptr;
        while (PyDict_Next(value, &at, &key, &item)) {
            PyObject* copied = PyUnicode_CheckExact(key) ? json_copy_at(item, depth + 1, max_depth, nodes, max_nodes)
                                                         : nullptr;
            // An exact str key hashes without Python code; the new dict is this function's own.
            if (copied == nullptr || PyDict_SetItem(out, key, copied) < 0) {
                Py_XDECREF(copied);
                Py_DECREF(out);
                return nullptr;
            }
            Py_DECREF(copied);
        }
        return out;
    }
    return nullptr;
}

// json_copy(value, max_depth, max_nodes): see the docstring below.
PyObject* json_copy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    long long max_depth = 0, max_nodes = 0;
    if (!json_bounds(args, nargs, "json_copy", max_depth, max_nodes)) return nullptr;
    long long nodes = 0;
    PyObject* out = json_copy_at(args[0], 0, static_cast<int>(max_depth), nodes, max_nodes);
    if (out != nullptr || PyErr_Occurred()) return out;
    Py_RETURN_NONE;
}

// Whether `values` is an exact list of exact ints, each within lows[i]..highs[i] (tuples of ints as long).
PyObject* ints_within(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyTuple_CheckExact(args[1]) || !PyTuple_CheckExact(args[2]) ||
        PyTuple_GET_SIZE(args[1]) != PyTuple_GET_SIZE(args[2])) {
        PyErr_SetString(PyExc_TypeError, "ints_within expects a list and two tuples of bounds of one length");
        return nullptr;
    }
    const Py_ssize_t size = PyTuple_GET_SIZE(args[1]);
    std::vector<long long> lows(static_cast<std::size_t>(size)), highs(static_cast<std::size_t>(size));
    for (Py_ssize_t i = 0; i < size; ++i) {
        if (!read_int(PyTuple_GET_ITEM(args[1], i), "a low bound", LLONG_MIN, LLONG_MAX, lows[static_cast<std::size_t>(i)],
                      PyExc_TypeError) ||
            !read_int(PyTuple_GET_ITEM(args[2], i), "a high bound", LLONG_MIN, LLONG_MAX,
                      highs[static_cast<std::size_t>(i)], PyExc_TypeError))
            return nullptr;
    }
    PyObject* values = args[0];
    if (!PyList_CheckExact(values) || PyList_GET_SIZE(values) != size) Py_RETURN_FALSE;
    for (Py_ssize_t i = 0; i < size; ++i) {
        PyObject* value = PyList_GET_ITEM(values, i);
        if (!PyLong_CheckExact(value)) Py_RETURN_FALSE;
        int overflow = 0;
        const long long parsed = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow != 0 || parsed < lows[static_cast<std::size_t>(i)] || parsed > highs[static_cast<std::size_t>(i)])
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

// has_list(items): True if the list or tuple `items` holds an exact list (a snapshot's actions as JSON gives
// them, rather than Action tuples), else False; TypeError if `items` is neither. Reads only.
PyObject* has_list(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 1 || (!PyList_CheckExact(args[0]) && !PyTuple_CheckExact(args[0]))) {
        PyErr_SetString(PyExc_TypeError, "has_list expects a list or a tuple");
        return nullptr;
    }
    PyObject* items = args[0];
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < size; ++i)
        if (PyList_CheckExact(PySequence_Fast_GET_ITEM(items, i))) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

PyMethodDef kSnapshotMethods[] = {
    {"compact_tiles", as_method(compact_tiles), METH_FASTCALL,
     "compact_tiles($module, hands, discards, missed, wall, head, tail, extra, copies, made, claimed, melds, low,\n"
     "              high, stand_in=b'', /)\n--\n\n"
     "A format-2 snapshot's tile strings decoded and checked in one pass (hupai.game.state.compact): `hands`,\n"
     "`discards`, `missed` are the snapshot's lists of n strs (34 count characters per hand; tiles in a pile;\n"
     "sorted tiles without repeats per seat, 0-9 and a-x). Checks that each pile holds made[s] - claimed[s]\n"
     "tiles, that each seat holds low[s]..high[s] tiles counting 3 per meld (melds[s]), and tile conservation:\n"
     "the hands, the piles, wall[head:tail] and `extra` (meld tiles and the rules' own places) hold exactly\n"
     "copies[k] tiles of each kind k; with `stand_in`, bytes (recorded, physical, chows), up to `chows` of the\n"
     "tiles counted as kind `recorded` are of kind `physical` (a chow's stand-in, Yunxiao's 白板 as the gold's\n"
     "face; b'' for none). Returns (hands, piles, missed), each a tuple of n bytes of kinds (counts\n"
     "for the hands), or None if anything is off (the Python check then names it). The other arguments are\n"
     "bytes (made, claimed, melds, low, high: one byte per seat; copies: 34) and ints; TypeError if they are\n"
     "not. Reads only: nothing is written but the returned tuple."},
    {"plain_json", as_method(plain_json), METH_FASTCALL,
     "plain_json($module, value, max_depth, max_nodes, /)\n--\n\n"
     "True if `value` is plain JSON data as hupai.game.state.validate.check_free_json accepts it: exact dicts\n"
     "with str keys, lists, strs, floats, bools, None and ints in -2**63..2**64-1, nested at most `max_depth`\n"
     "deep (0..64), at most `max_nodes` values in all. False otherwise (the Python walk then names what is\n"
     "wrong). Reads only."},
    {"json_copy", as_method(json_copy), METH_FASTCALL,
     "json_copy($module, value, max_depth, max_nodes, /)\n--\n\n"
     "A copy of `value` if it is plain JSON data as plain_json accepts it (new dicts and lists; strs, ints,\n"
     "floats, bools and None shared: they are immutable), else None. Reads `value` only."},
    {"ints_within", as_method(ints_within), METH_FASTCALL,
     "ints_within($module, values, lows, highs, /)\n--\n\n"
     "True if `values` is a list of exact ints (no bools), values[i] in lows[i]..highs[i] (tuples of ints of\n"
     "its length, within a C long long), else False. TypeError if the bounds are not such tuples. Reads only."},
    {"has_list", as_method(has_list), METH_FASTCALL,
     "has_list($module, items, /)\n--\n\n"
     "True if the list or tuple `items` holds an exact list (a snapshot's compact actions as JSON gives them),\n"
     "else False. TypeError if `items` is neither. Reads only."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_snapshot(py::module_& m) {
    m.def("compact_actions", &compact_actions, py::arg("actions"), py::arg("players"), py::arg("kinds"),
          py::arg("kong_flags"), py::arg("max_flag"),
          "Each seat's discards in a snapshot's compact actions, or None if any action is malformed (see "
          "hupai.game.validate.check_actions, which then names it).");
    add_functions(m, kSnapshotMethods);
}

}  // namespace hupai::binding
