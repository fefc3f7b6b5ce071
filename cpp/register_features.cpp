// hupai.env's features in the core: one seat's view of N tables written into preallocated buffers, the GIL
// released (features.hpp). Inputs are any buffers (numpy arrays, bytes) of the documented sizes.
#include <pybind11/numpy.h>
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

// A read-only view of `value`'s bytes, refused unless it holds exactly `items` items of `itemsize` bytes.
py::buffer_info input(py::handle value, const char* name, py::ssize_t items, py::ssize_t itemsize) {
    if (!PyObject_CheckBuffer(value.ptr()))
        throw InvalidHand(std::string(name) + " must be a buffer (a numpy array or bytes), got " +
                          Py_TYPE(value.ptr())->tp_name);
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(value).request();
    bool contiguous = true;
    py::ssize_t expected = info.itemsize;
    for (py::ssize_t d = info.ndim - 1; d >= 0; --d) {
        if (info.strides[size_t(d)] != expected) contiguous = false;
        expected *= info.shape[size_t(d)];
    }
    if (!contiguous || info.itemsize != itemsize || info.size != items)
        throw InvalidHand(std::string(name) + " must be " + std::to_string(items) + " contiguous items of " +
                          std::to_string(itemsize) + " byte(s), got " + std::to_string(info.size) + " of " +
                          std::to_string(info.itemsize));
    return info;
}

template <typename T>
T* output(py::handle value, const char* name, py::ssize_t& rows, py::ssize_t& width) {
    if (!py::isinstance<py::array_t<T>>(value)) throw InvalidHand(std::string(name) + " must be a numpy array");
    auto array = py::reinterpret_borrow<py::array>(value);
    if (array.ndim() != 2 || !(array.flags() & py::array::c_style) || !array.writeable() ||
        !array.dtype().is(py::dtype::of<T>()))
        throw InvalidHand(std::string(name) + " must be a writable C-contiguous 2-d array of its dtype");
    rows = array.shape(0);
    width = array.shape(1);
    return static_cast<T*>(array.mutable_data());
}

void encode_features(py::handle ints_arg, py::handle floats_arg, py::handle smalls_arg, py::handle hands_arg,
                     py::handle melds_arg, py::handle discards_arg, py::handle legal_arg, py::tuple dims_arg,
                     py::handle tails_arg, py::handle at_arg) {
    if (dims_arg.size() != 8) throw InvalidHand("dims: 8 ints");
    long long values[8];
    const char* names[8] = {"seats", "kinds", "max_discards", "actions", "table_size", "max_melds",
                            "discard_stride", "shanten_forms"};
    const long long highs[8] = {8, kNumKinds, 1000, 100000, 100000, 64, 1000, kAllForms};
    for (size_t i = 0; i < 8; ++i)
        if (!read_int(dims_arg[i].ptr(), names[i], i == 7 ? 0 : 1, highs[i], values[i])) throw py::error_already_set();
    FeatureDims dims;
    dims.seats = int(values[0]);
    dims.kinds = int(values[1]);
    dims.max_discards = int(values[2]);
    dims.actions = int(values[3]);
    dims.table_size = int(values[4]);
    dims.max_melds = int(values[5]);
    dims.discard_stride = int(values[6]);
    dims.shanten_forms = unsigned(values[7]);
    if (dims.table_size < 5 + 7 * dims.seats + 1) throw InvalidHand("table_size is too small for the seats");
    py::ssize_t rows = 0, int_width = 0, float_rows = 0, float_width = 0;
    std::int8_t* ints = output<std::int8_t>(ints_arg, "ints", rows, int_width);
    float* floats = output<float>(floats_arg, "floats", float_rows, float_width);
    if (int_width != dims.int_size() || float_rows != rows || float_width < dims.table_size)
        throw InvalidHand("ints must be (N, " + std::to_string(dims.int_size()) + ") and floats (N, >= " +
                          std::to_string(dims.table_size) + ")");
    // The tables encoded are rows at.. of the outputs, as many as smalls holds (a caller keeping a pool of rows
    // writes one without slicing it out); every input is checked against that count.
    long long at = 0;
    if (!at_arg.is_none() && !read_int(at_arg.ptr(), "at", 0, rows, at)) throw py::error_already_set();
    py::ssize_t count = rows;
    if (!at_arg.is_none()) {
        if (!PyObject_CheckBuffer(smalls_arg.ptr())) throw InvalidHand("smalls must be a buffer (a numpy array or bytes)");
        const py::buffer_info probe = py::reinterpret_borrow<py::buffer>(smalls_arg).request();
        count = probe.size * probe.itemsize / (4 * dims.smalls());
    }
    if (at + count > rows) throw InvalidHand("at + the tables given must be at most the rows of ints and floats");
    ints += at * int_width;
    floats += at * float_width;
    rows = count;
    const int n = dims.seats;
    const auto smalls = input(smalls_arg, "smalls", rows * dims.smalls(), 4);
    const auto hands = input(hands_arg, "hands", rows * dims.kinds, 1);
    const auto melds = input(melds_arg, "melds", rows * n * dims.max_melds * FeatureDims::kMeldWidth, 1);
    const auto discards = input(discards_arg, "discards", rows * n * dims.discard_stride, 1);
    const auto legal = input(legal_arg, "legal", rows * dims.actions, 1);
    // tails: each table's floats after its table block (the rule facts and scores, which Python encodes), as the
    // bytes of float32 values (copied, so no alignment is asked of them); None leaves them zero.
    const py::ssize_t tail_width = float_width - dims.table_size;
    py::buffer_info tails;
    if (!tails_arg.is_none()) tails = input(tails_arg, "tails (float32 bytes)", rows * tail_width * 4, 1);
    std::string error;
    py::ssize_t bad = -1;
    {
        py::gil_scoped_release release;  // holding it would also stall Python's garbage collector
        for (py::ssize_t row = 0; row < rows && error.empty(); ++row) {
            SeatView view;
            view.smalls = static_cast<const std::int32_t*>(smalls.ptr) + row * dims.smalls();
            view.hand = static_cast<const std::uint8_t*>(hands.ptr) + row * dims.kinds;
            view.melds = static_cast<const std::int8_t*>(melds.ptr) + row * n * dims.max_melds * FeatureDims::kMeldWidth;
            view.discards = static_cast<const std::int8_t*>(discards.ptr) + row * n * dims.discard_stride;
            view.legal = static_cast<const std::uint8_t*>(legal.ptr) + row * dims.actions;
            float* out = floats + row * float_width;
            error = encode_seat(dims, view, ints + row * int_width, out, int(float_width));
            if (!error.empty()) bad = row;
            else if (tails.ptr != nullptr && tail_width > 0)
                std::memcpy(out + dims.table_size, static_cast<const char*>(tails.ptr) + row * tail_width * 4,
                            size_t(tail_width) * sizeof(float));
        }
    }
    if (!error.empty()) throw InvalidHand("table " + std::to_string(bad) + ": " + error);
}

}  // namespace

void register_features(py::module_& m) {
    m.def("encode_features", &encode_features, py::arg("ints"), py::arg("floats"), py::arg("smalls"),
          py::arg("hands"), py::arg("melds"), py::arg("discards"), py::arg("legal"), py::arg("dims"),
          py::arg("tails") = py::none(), py::arg("at") = py::none(),
          "One seat's agent features of N tables into ints (int8[N, I]) and floats (float32[N, F]) "
          "(hupai.env.features); the GIL released. tails: the bytes of float32[N, F - table_size], copied after "
          "each table block; at: the first row written (then N is what smalls holds).");
}

}  // namespace hupai::binding
