// A snapshot's action list (hupai.game.validate): every action's shape checked in one pass over the JSON data,
// and each seat's discards counted. Reads only: nothing is written but the returned list.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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

// An exact str equal to one of `choices` (a tuple of exact strs, checked by the caller).
bool one_of(PyObject* text, PyObject* choices) {
    if (!PyUnicode_CheckExact(text)) return false;
    const Py_ssize_t count = PyTuple_GET_SIZE(choices);
    for (Py_ssize_t i = 0; i < count; ++i)
        if (PyUnicode_Compare(text, PyTuple_GET_ITEM(choices, i)) == 0) return true;
    return false;
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
    PyObject* list = actions.ptr();
    if (!PyList_CheckExact(list) && !PyTuple_CheckExact(list)) return py::none();
    std::vector<long long> discards(static_cast<std::size_t>(players), 0);
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(list);
    for (Py_ssize_t at = 0; at < size; ++at) {
        PyObject* action = PySequence_Fast_GET_ITEM(list, at);
        if (!PyList_Check(action) && !PyTuple_Check(action)) return py::none();
        if (PySequence_Fast_GET_SIZE(action) != 5) return py::none();
        PyObject** field = PySequence_Fast_ITEMS(action);
        if (!one_of(field[0], kinds.ptr()) || !plain_int(field[1], 0, players - 1) || !plain_int(field[2], -1, 33))
            return py::none();
        PyObject* tiles = field[3];
        if (!PyList_CheckExact(tiles) && !PyTuple_CheckExact(tiles)) return py::none();
        const Py_ssize_t count = PySequence_Fast_GET_SIZE(tiles);
        if (count > 4) return py::none();
        for (Py_ssize_t i = 0; i < count; ++i)
            if (!plain_int(PySequence_Fast_GET_ITEM(tiles, i), 0, 33)) return py::none();
        PyObject* flag = field[4];
        if (!PyUnicode_CheckExact(flag) || PyUnicode_GET_LENGTH(flag) > max_flag) return py::none();
        if (PyUnicode_CompareWithASCIIString(field[0], "kong") == 0 && !one_of(flag, kong_flags.ptr()))
            return py::none();
        if (PyUnicode_CompareWithASCIIString(field[0], "discard") == 0)
            ++discards[static_cast<std::size_t>(PyLong_AsLong(field[1]))];
    }
    return py::cast(discards);
}

}  // namespace

void register_snapshot(py::module_& m) {
    m.def("compact_actions", &compact_actions, py::arg("actions"), py::arg("players"), py::arg("kinds"),
          py::arg("kong_flags"), py::arg("max_flag"),
          "Each seat's discards in a snapshot's compact actions, or None if any action is malformed (see "
          "hupai.game.validate.check_actions, which then names it).");
}

}  // namespace hupai::binding
