// CPython bindings of the game engine's hot-path helpers (hupai.game and the default hupai.rules.base.Rules):
// they read the engine's own Python objects in place (bytearray hands, lists, the legal-action cache), so they are
// plain METH_FASTCALL functions. The game logic they call is plain C++ (claims.hpp); none lives here.
#include <Python.h>

#include <cstdint>
#include <cstring>

#include "claims.hpp"
#include "tiles.hpp"

using namespace hupai;

namespace {

// An int argument of the engine's helpers, in low..high; anything else is a ValueError naming it.
bool read_small_int(PyObject* value, const char* name, long low, long high, long& out) {
    if (PyLong_Check(value)) {
        out = PyLong_AsLong(value);
        const bool failed = out == -1 && PyErr_Occurred();
        if (!failed && out >= low && out <= high) return true;
        if (failed && !PyErr_ExceptionMatches(PyExc_OverflowError)) return false;
        PyErr_Clear();
    }
    PyErr_Format(PyExc_ValueError, "%s must be an int in %ld..%ld", name, low, high);
    return false;
}

// claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags) -> int: the engine asks it after
// every discard (hupai.rules.base.Rules.claim_options), so it reads the table's own objects in place: ``hands``
// a list of 34-byte bytearrays, ``melds`` a list of per-seat meld lists (only their lengths matter), ``ready``
// the table's per-seat ready cache (True, False or None = unknown), which it fills in where it works it out.
PyObject* fast_claim_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "claim_scan expects 8 arguments, got %zd", nargs);
        return nullptr;
    }
    PyObject* hands = args[0];
    PyObject* melds = args[1];
    PyObject* ready = args[2];
    if (!PyList_Check(hands) || !PyList_Check(melds) || !PyList_Check(ready) || PyList_GET_SIZE(hands) < 2 ||
        PyList_GET_SIZE(hands) > 4 || PyList_GET_SIZE(melds) != PyList_GET_SIZE(hands) ||
        PyList_GET_SIZE(ready) != PyList_GET_SIZE(hands)) {
        PyErr_SetString(PyExc_ValueError,
                        "claim_scan: hands, melds and ready must be lists with one entry per seat (2..4)");
        return nullptr;
    }
    ClaimQuery query;
    query.num_players = int(PyList_GET_SIZE(hands));
    for (int seat = 0; seat < query.num_players; ++seat) {
        PyObject* hand = PyList_GET_ITEM(hands, seat);
        PyObject* seat_melds = PyList_GET_ITEM(melds, seat);
        if (!PyByteArray_CheckExact(hand) || PyByteArray_GET_SIZE(hand) != kNumKinds || !PyList_Check(seat_melds)) {
            PyErr_SetString(PyExc_ValueError, "claim_scan: each hand must be a bytearray of 34 counts, each melds a list");
            return nullptr;
        }
        const auto* counts = reinterpret_cast<const std::uint8_t*>(PyByteArray_AS_STRING(hand));
        for (int kind = 0; kind < kNumKinds; ++kind) {
            if (counts[kind] > kMaxCopies) {
                PyErr_Format(PyExc_ValueError, "claim_scan: seat %d holds %d of kind %d", seat, int(counts[kind]), kind);
                return nullptr;
            }
        }
        query.hands[seat] = counts;
        query.melds[seat] = int(PyList_GET_SIZE(seat_melds));
        PyObject* known = PyList_GET_ITEM(ready, seat);
        query.ready[seat] = known == Py_True ? 1 : known == Py_False ? 0 : -1;
    }
    long tile = 0, discarder = 0, forms = 0, chow_seats = 0, flags = 0;
    if (!read_small_int(args[3], "tile", 0, kNumKinds - 1, tile) ||
        !read_small_int(args[4], "discarder", 0, query.num_players - 1, discarder) ||
        !read_small_int(args[5], "forms", 1, kAllForms, forms) || !read_small_int(args[6], "chow_seats", 0, 15, chow_seats) ||
        !read_small_int(args[7], "flags", 0, 7, flags))
        return nullptr;
    query.tile = int(tile);
    query.discarder = int(discarder);
    query.forms = unsigned(forms);
    query.chow_seats = unsigned(chow_seats);
    query.flags = unsigned(flags);
    const signed char before[4] = {query.ready[0], query.ready[1], query.ready[2], query.ready[3]};
    const std::uint32_t shapes = claim_shapes(query);
    for (int seat = 0; seat < query.num_players; ++seat) {
        if (before[seat] >= 0 || query.ready[seat] < 0) continue;
        PyObject* value = query.ready[seat] ? Py_True : Py_False;
        Py_INCREF(value);
        PyList_SetItem(ready, seat, value);  // steals the reference, releases the old None
    }
    return PyLong_FromUnsignedLong(shapes);
}

// held_actions(hand, actions) -> tuple: actions[k] for every kind k that ``hand`` (a bytearray of 34 counts)
// holds, in kind order: a turn's discards, built from the engine's prebuilt Action objects.
PyObject* fast_held_actions(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyByteArray_CheckExact(args[0]) || PyByteArray_GET_SIZE(args[0]) != kNumKinds ||
        !PyTuple_CheckExact(args[1]) || PyTuple_GET_SIZE(args[1]) != kNumKinds) {
        PyErr_SetString(PyExc_TypeError, "held_actions expects a bytearray of 34 counts and a tuple of 34 actions");
        return nullptr;
    }
    const char* hand = PyByteArray_AS_STRING(args[0]);
    Py_ssize_t count = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) count += hand[kind] != 0;
    PyObject* out = PyTuple_New(count);
    if (out == nullptr) return nullptr;
    Py_ssize_t at = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand[kind] == 0) continue;
        PyObject* action = PyTuple_GET_ITEM(args[1], kind);
        Py_INCREF(action);
        PyTuple_SET_ITEM(out, at++, action);
    }
    return out;
}

// chosen_action(legal_by_seat, action, action_type) -> the legal action or None. ``legal_by_seat`` is the
// engine's cache {seat: tuple of legal actions}; ``action`` must be of exactly ``action_type`` with an int seat.
// The same object is looked for first (legal actions are shared prebuilt objects, so a chosen one is usually
// there itself), then an equal one (the engine applies and logs its own copy): ``in`` and ``tuple.index``
// would compare every earlier action field by field.
PyObject* fast_chosen_action(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyDict_CheckExact(args[0]) || !PyType_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "chosen_action expects a dict, an action and the action type");
        return nullptr;
    }
    PyObject* action = args[1];
    if (Py_TYPE(action) != reinterpret_cast<PyTypeObject*>(args[2]) || !PyTuple_Check(action) ||
        PyTuple_GET_SIZE(action) < 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(action, 1)))
        Py_RETURN_NONE;
    PyObject* legal = PyDict_GetItemWithError(args[0], PyTuple_GET_ITEM(action, 1));  // borrowed
    if (legal == nullptr) {
        if (PyErr_Occurred()) return nullptr;
        Py_RETURN_NONE;
    }
    if (!PyTuple_CheckExact(legal)) Py_RETURN_NONE;
    const Py_ssize_t size = PyTuple_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < size; ++i) {
        PyObject* item = PyTuple_GET_ITEM(legal, i);
        if (item == action) {
            Py_INCREF(item);
            return item;
        }
    }
    for (Py_ssize_t i = 0; i < size; ++i) {
        PyObject* item = PyTuple_GET_ITEM(legal, i);
        const int equal = PyObject_RichCompareBool(item, action, Py_EQ);
        if (equal < 0) return nullptr;
        if (equal) {
            Py_INCREF(item);
            return item;
        }
    }
    Py_RETURN_NONE;
}

// turn_scan(hand, melds, drawn, forms) -> int: what a turn may offer besides discards, by shape. Bit 1: the
// hand (a bytearray of 34 counts) is complete in `forms` (asked only if drawn >= 0, a tile drawn or dealt);
// bit 2: a kong may be possible (four of a kind held, or a held kind of an exposed pung in `melds`, a list of
// hupai.Meld). Zero means the turn is only its discards.
PyObject* fast_turn_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyByteArray_CheckExact(args[0]) || PyByteArray_GET_SIZE(args[0]) != kNumKinds ||
        !PyList_Check(args[1]) || !PyLong_Check(args[2]) || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "turn_scan expects (bytearray(34), list of melds, int, int)");
        return nullptr;
    }
    const auto* hand = reinterpret_cast<const std::uint8_t*>(PyByteArray_AS_STRING(args[0]));
    PyObject* melds = args[1];
    long drawn = -1, forms = 0;
    if (!read_small_int(args[2], "drawn", -1, kNumKinds - 1, drawn) ||
        !read_small_int(args[3], "forms", 1, kAllForms, forms))
        return nullptr;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand[kind] > kMaxCopies) {
            PyErr_Format(PyExc_ValueError, "turn_scan: the hand holds %d of kind %d", int(hand[kind]), kind);
            return nullptr;
        }
    }
    const Py_ssize_t meld_count = PyList_GET_SIZE(melds);
    long bits = 0;
    if (drawn >= 0 && meld_count <= kMaxMelds && hand_wins(hand, int(meld_count), unsigned(forms)))
        bits |= 1;
    if (std::memchr(hand, kMaxCopies, kNumKinds) != nullptr) {
        bits |= 2;
    } else if (meld_count > 0) {
        static PyObject* const type_name = PyUnicode_InternFromString("type");
        static PyObject* const tiles_name = PyUnicode_InternFromString("tiles");
        static PyObject* const pung = PyUnicode_InternFromString("pung");
        for (Py_ssize_t i = 0; i < meld_count && !(bits & 2); ++i) {
            PyObject* meld = PyList_GET_ITEM(melds, i);
            PyObject* type = PyObject_GetAttr(meld, type_name);
            if (type == nullptr) {
                PyErr_Format(PyExc_TypeError, "turn_scan: melds must be hupai.Meld objects, got %s",
                             Py_TYPE(meld)->tp_name);
                return nullptr;
            }
            const int is_pung = PyUnicode_Check(type) ? PyUnicode_Compare(type, pung) == 0 : 0;
            Py_DECREF(type);
            if (!is_pung) continue;
            PyObject* tiles = PyObject_GetAttr(meld, tiles_name);
            if (tiles == nullptr) return nullptr;
            const long kind = PyTuple_Check(tiles) && PyTuple_GET_SIZE(tiles) > 0
                                  ? PyLong_AsLong(PyTuple_GET_ITEM(tiles, 0))
                                  : -1;
            Py_DECREF(tiles);
            if (PyErr_Occurred()) return nullptr;
            if (kind >= 0 && kind < kNumKinds && hand[kind] > 0) bits |= 2;
        }
    }
    return PyLong_FromLong(bits);
}

PyMethodDef kEngineMethods[] = {
    {"claim_scan", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_claim_scan)), METH_FASTCALL,
     "claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags)\n--\n\n"
     "The claims every seat but the discarder could make on `tile` by the shape of its hand: 8 bits per seat\n"
     "at 8*seat (1 win, 2 pung, 4 kong; chows 8, 16, 32: the tile high, middle, low in the run). hands:\n"
     "list of bytearray(34); melds: list of per-seat meld lists; ready: per-seat True/False/None (None is\n"
     "filled in when a win is checked);\n"
     "chow_seats: bit s = seat s may chow; flags: 1 melds claimable, 2 kong allowed, 4 check wins (in\n"
     "`forms`). For hupai.rules.base.Rules.claim_options."},
    {"held_actions", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_held_actions)), METH_FASTCALL,
     "held_actions(hand, actions)\n--\n\n"
     "actions[k] for every kind k held in `hand` (bytearray of 34 counts; `actions` a tuple of 34), in kind\n"
     "order (for the engine's turn actions)."},
    {"chosen_action", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_chosen_action)),
     METH_FASTCALL,
     "chosen_action(legal_by_seat, action, action_type)\n--\n\n"
     "The legal action (from the engine's {seat: tuple} cache) that `action` is: the same object first, then\n"
     "an equal one; None if `action` is not of exactly `action_type` or not legal."},
    {"turn_scan", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_turn_scan)), METH_FASTCALL,
     "turn_scan(hand, melds, drawn, forms)\n--\n\n"
     "Bits of what a turn may offer besides discards: 1 the hand is complete in `forms` (if drawn >= 0),\n"
     "2 a kong may be possible (four held, or the kind of an exposed pung held)."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef* engine_methods() { return kEngineMethods; }
