// Plain data in from Python: ints, 34 counts from a buffer, joker-kind masks; and the errors the core raises.
// Shared by the register_*.cpp files. Every reader copies what it reads once, then checks the copy: a buffer
// may be written by another thread while the core works.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "tiles.hpp"

namespace hupai::binding {

// hupai.errors.HupaiError and InvalidHand: created here at import (register_errors) and re-exported by
// hupai.errors, so that the core raises them without importing any hupai Python module.
PyObject* hupai_error_type();
PyObject* invalid_hand_type();
void set_invalid_hand(const std::string& message);

// An int in low..high: a Python int, a numpy integer scalar or anything with __index__, never a bool or a float.
// Anything else raises `error` (InvalidHand unless given) naming `name`; returns false with the error set.
bool read_int(PyObject* value, const char* name, long long low, long long high, long long& out,
              PyObject* error = nullptr);

enum class Read { kDone, kNotPlain, kFailed };

// 34 counts (each 0..4) from a buffer: a numpy array of any integer dtype and shape (34,), or bytes, bytearray,
// memoryview or any other 1-D integer buffer of 34 items. kNotPlain (no error set) if `hand` is no buffer at
// all; kFailed with InvalidHand set if it is one but not 34 counts.
Read read_counts(PyObject* hand, std::uint8_t* out);

// The same for a zipai hand: 20 counts (each 0..4).
Read read_counts20(PyObject* hand, std::uint8_t* out);

// joker_kinds as the core takes it: None (every kind) or a 34-bit mask. kNotPlain (no error set) for anything
// that is neither an int nor None (a list of kinds: the Python wrapper turns it into a mask).
Read read_joker_kinds(PyObject* value, KindMask& out);

// Adds raw CPython functions (a null-terminated table) to the module, each with `self` = the module.
void add_functions(pybind11::module_& m, PyMethodDef* functions);

// A METH_FASTCALL function (self, args, nargs) as the PyCFunction a PyMethodDef table holds.
template <typename Function>
PyCFunction as_method(Function function) {
    return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(function));
}

}  // namespace hupai::binding
