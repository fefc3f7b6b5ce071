#include "pyargs.hpp"

#include <pybind11/numpy.h>

#include <atomic>
#include <cstring>

#include "register.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

PYBIND11_CONSTINIT py::gil_safe_call_once_and_store<py::object> hupai_error_storage;
PYBIND11_CONSTINIT py::gil_safe_call_once_and_store<py::object> invalid_hand_storage;

// numpy's C API once numpy is loaded, else null. No array exists before numpy is imported, so until then nothing
// is an array, and the core never imports numpy itself (``import hupai`` stays fast). Set once, then read-only.
const py::detail::npy_api* numpy_api() {
    static std::atomic<const py::detail::npy_api*> loaded{nullptr};
    const py::detail::npy_api* api = loaded.load(std::memory_order_acquire);
    if (api != nullptr) return api;
    PyObject* modules = PyImport_GetModuleDict();  // borrowed, lives as long as the interpreter
    if (PyDict_GetItemString(modules, "numpy") == nullptr) return nullptr;
    api = &py::detail::npy_api::get();
    loaded.store(api, std::memory_order_release);
    return api;
}

Read counts_failed(const std::string& message) {
    set_invalid_hand(message);
    return Read::kFailed;
}

// The signedness of a native integer buffer format ('b', '<q', '=l' ...); false for anything else.
bool integer_format(const char* format, bool& is_signed) {
    if (format == nullptr) format = "B";  // the buffer protocol's default: unsigned bytes
    if (*format == '@' || *format == '=') ++format;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    else if (*format == '<') ++format;
#endif
    if (format[0] == '\0' || format[1] != '\0' || std::strchr("bBhHiIlLqQnN", format[0]) == nullptr) return false;
    is_signed = std::strchr("bhilqn", format[0]) != nullptr;
    return true;
}

// Checks N values read from the caller's memory (already copied) and stores them as counts (34 tile kinds, or
// 20 zipai cards).
template <int N, typename Value>
Read store_counts(const Value (&values)[N], std::uint8_t* out) {
    for (int kind = 0; kind < N; ++kind) {
        if (values[kind] < 0 || values[kind] > kMaxCopies)
            return counts_failed("count " + std::to_string(values[kind]) + " of kind " + std::to_string(kind) +
                                 (N == kNumKinds ? " (" + kind_name(kind) + ")" : std::string()) +
                                 " is outside 0..4");
        out[kind] = static_cast<std::uint8_t>(values[kind]);
    }
    return Read::kDone;
}

// The same for bytes, the hot case: one branch-free pass over the copy, the error path only when needed.
template <int N>
Read store_bytes(const std::uint8_t (&values)[N], std::uint8_t* out) {
    unsigned over = 0;
    for (int kind = 0; kind < N; ++kind) {
        out[kind] = values[kind];
        over |= unsigned(values[kind] > kMaxCopies);
    }
    return over ? store_counts<N>(values, out) : Read::kDone;
}

template <int N>
Read read_view(const Py_buffer& view, std::uint8_t* out) {
    if (view.ndim != 1 || view.shape == nullptr || view.shape[0] != N) {
        std::string shape;  // as numpy writes it: (34,) (2, 34) ()
        for (int d = 0; d < view.ndim; ++d)
            shape += (d ? ", " : "") + std::to_string(view.shape ? view.shape[d] : 0);
        shape = "(" + shape + (view.ndim == 1 ? ",)" : ")");
        return counts_failed("a counts vector must have shape (" + std::to_string(N) + ",), got " + shape);
    }
    bool is_signed = false;
    const Py_ssize_t size = view.itemsize;
    if (!integer_format(view.format, is_signed) || (size != 1 && size != 2 && size != 4 && size != 8))
        return counts_failed(std::string("a counts vector must hold integers, got buffer format '") +
                             (view.format ? view.format : "B") + "'");
    const Py_ssize_t stride = view.strides ? view.strides[0] : size;
    const auto* base = static_cast<const unsigned char*>(view.buf);
    long long values[N];  // every item copied once, then checked
    for (int kind = 0; kind < N; ++kind) {
        std::uint64_t raw = 0;
        std::memcpy(&raw, base + kind * stride, size_t(size));  // little end first: the low bytes of raw
        if (is_signed && size < 8 && (raw >> (8 * size - 1) & 1)) raw |= ~std::uint64_t{0} << (8 * size);
        // An unsigned 64-bit value past INT64_MAX reads as negative: still outside 0..4, so refused.
        values[kind] = static_cast<long long>(raw);
    }
    return store_counts<N>(values, out);
}

// read_counts and read_counts20: N counts from bytes, a bytearray, a 1-D numpy uint8 array or another buffer.
template <int N>
Read read_counts_of(PyObject* hand, std::uint8_t* out) {
    // bytes and bytearray: their own memory, read directly (the common engine case).
    if (PyBytes_Check(hand) || PyByteArray_Check(hand)) {
        const bool is_bytes = PyBytes_Check(hand);
        const Py_ssize_t size = is_bytes ? PyBytes_GET_SIZE(hand) : PyByteArray_GET_SIZE(hand);
        if (size != N)
            return counts_failed("a bytes-like hand is a counts vector of " + std::to_string(N) + " bytes, got " +
                                 std::to_string(size) + " bytes");
        std::uint8_t values[N];
        std::memcpy(values, is_bytes ? PyBytes_AS_STRING(hand) : PyByteArray_AS_STRING(hand), N);
        return store_bytes<N>(values, out);
    }
    if (!PyObject_CheckBuffer(hand)) return Read::kNotPlain;
    // A uint8[N] numpy array read from its struct: numpy's buffer export costs more than the analysis. The type
    // is numpy's own (its C API), never recognised by name.
    if (const py::detail::npy_api* api = numpy_api(); api != nullptr && api->PyArray_Check_(hand)) {
        const auto* array = py::detail::array_proxy(hand);
        if (array->nd == 1 && array->dimensions[0] == N &&
            py::detail::array_descriptor_proxy(array->descr)->type_num == py::detail::npy_api::NPY_UBYTE_) {
            const Py_ssize_t stride = array->strides[0];
            std::uint8_t values[N];
            if (stride == 1) {
                std::memcpy(values, array->data, N);
            } else {
                for (int kind = 0; kind < N; ++kind)
                    values[kind] = static_cast<std::uint8_t>(array->data[kind * stride]);
            }
            return store_bytes<N>(values, out);
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(hand, &view, PyBUF_RECORDS_RO) != 0) {
        // An exporter that cannot give a strided, formatted view (an object array, a datetime array ...).
        PyErr_Clear();
        return counts_failed("a counts vector must be a buffer of " + std::to_string(N) + " integers; " +
                             Py_TYPE(hand)->tp_name + " gives none");
    }
    const Read result = read_view<N>(view, out);
    PyBuffer_Release(&view);
    return result;
}

}  // namespace

PyObject* hupai_error_type() { return hupai_error_storage.get_stored().ptr(); }
PyObject* invalid_hand_type() { return invalid_hand_storage.get_stored().ptr(); }

void set_invalid_hand(const std::string& message) { PyErr_SetString(invalid_hand_type(), message.c_str()); }

void register_errors(py::module_& m) {
    hupai_error_storage.call_once_and_store_result([] {
        PyObject* type = PyErr_NewExceptionWithDoc("hupai.errors.HupaiError", "Base class of every error raised by hupai.",
                                                   PyExc_Exception, nullptr);
        if (type == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(type);
    });
    invalid_hand_storage.call_once_and_store_result([] {
        py::tuple bases = py::make_tuple(py::handle(hupai_error_type()), py::handle(PyExc_ValueError));
        PyObject* type = PyErr_NewExceptionWithDoc(
            "hupai.errors.InvalidHand",
            "A tile string, kind list or counts array that is not a valid hand (the message says what is wrong).",
            bases.ptr(), nullptr);
        if (type == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(type);
    });
    m.add_object("HupaiError", py::reinterpret_borrow<py::object>(hupai_error_type()));
    m.add_object("InvalidHand", py::reinterpret_borrow<py::object>(invalid_hand_type()));
    // C++ code throws hupai::InvalidHand; Python sees hupai.errors.InvalidHand.
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const InvalidHand& invalid) {
            set_invalid_hand(invalid.what());
        }
    });
}

bool read_int(PyObject* value, const char* name, long long low, long long high, long long& out, PyObject* error) {
    if (PyLong_CheckExact(value)) {  // the common case: no __index__ to call
        int overflow = 0;
        const long long parsed = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow == 0 && parsed >= low && parsed <= high) {
            out = parsed;
            return true;
        }
    }
    if (error == nullptr) error = invalid_hand_type();
    if (PyBool_Check(value)) {
        PyErr_Format(error, "%s must be an int, got bool", name);
        return false;
    }
    PyObject* number = PyNumber_Index(value);  // a new reference; runs __index__ for numpy scalars
    if (number == nullptr) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) return false;
        PyErr_Clear();
        PyErr_Format(error, "%s must be an int, got %s", name, Py_TYPE(value)->tp_name);
        return false;
    }
    int overflow = 0;
    const long long parsed = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (overflow == 0 && parsed >= low && parsed <= high) {
        Py_DECREF(number);
        out = parsed;
        return true;
    }
    if (!PyErr_Occurred()) PyErr_Format(error, "%s=%S is out of range (%lld..%lld)", name, number, low, high);
    Py_DECREF(number);
    return false;
}

Read read_counts(PyObject* hand, std::uint8_t* out) { return read_counts_of<kNumKinds>(hand, out); }

Read read_counts20(PyObject* hand, std::uint8_t* out) { return read_counts_of<20>(hand, out); }

Read read_joker_kinds(PyObject* value, KindMask& out) {
    if (value == Py_None) {
        out = kAllKinds;
        return Read::kDone;
    }
    if (PyBool_Check(value) || PyFloat_Check(value)) {
        set_invalid_hand(std::string("joker_kinds must be kinds, tiles in notation, a 34-bit mask or None, got ") +
                         Py_TYPE(value)->tp_name);
        return Read::kFailed;
    }
    // A numpy array of kinds has __index__ too (for its one-element case): a sequence is kinds, never a mask.
    if (!PyLong_Check(value) && (!PyIndex_Check(value) || PySequence_Check(value))) return Read::kNotPlain;
    long long mask = 0;
    if (!read_int(value, "joker_kinds", 0, static_cast<long long>(kAllKinds), mask)) return Read::kFailed;
    out = static_cast<KindMask>(mask);
    return Read::kDone;
}

void add_functions(py::module_& m, PyMethodDef* functions) {
    for (PyMethodDef* def = functions; def->ml_name != nullptr; ++def) {
        PyObject* function = PyCFunction_NewEx(def, m.ptr(), m.attr("__name__").ptr());
        if (function == nullptr) throw py::error_already_set();
        m.add_object(def->ml_name, py::reinterpret_steal<py::object>(function));
    }
}

}  // namespace hupai::binding
