// numpy batches: shanten and is_win of every row of a uint8[N, 34] array, the GIL released, optionally on several
// threads. Arguments are checked (and per-row arrays copied) before any work, even for an empty batch.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "analysis.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tables.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// jokers or melds: one int for every row (checked against its real range now, so an empty batch is refused
// the same), or an integer array with one value per row, copied exactly: any integer dtype, no wrap-around.
struct PerRow {
    int scalar = 0;
    std::vector<std::int32_t> values;  // empty: the scalar applies
};

PerRow per_row(py::handle value, py::ssize_t rows, const char* name, long long high) {
    PerRow out;
    if (!py::isinstance<py::array>(value)) {
        long long parsed = 0;
        if (!read_int(value.ptr(), name, -1000, 1000, parsed)) throw py::error_already_set();
        if (parsed < 0 || parsed > high)
            throw InvalidHand(std::string(name) + " must be between 0 and " + std::to_string(high) + ", got " +
                              std::to_string(parsed));
        out.scalar = int(parsed);
        return out;
    }
    const auto array = py::reinterpret_borrow<py::array>(value);
    const char kind = array.dtype().kind();
    if (array.ndim() == 0) {  // a 0-d array is a scalar
        py::object item = array.attr("item")();
        return per_row(item, rows, name, high);
    }
    if (array.ndim() != 1 || array.shape(0) != rows || (kind != 'i' && kind != 'u'))
        throw InvalidHand(std::string(name) + " must be an int or an integer array of shape (" +
                          std::to_string(rows) + ",), got " + std::string(py::str(array.dtype())) +
                          " array of " + std::to_string(array.ndim()) + " dimension(s)");
    // Every integer dtype read exactly, in native order (another order goes through numpy's astype first).
    const bool is_unsigned = kind == 'u';
    const char order = array.dtype().byteorder();
    const bool native = order == '=' || order == '|' || (order == '<' && PY_LITTLE_ENDIAN);
    const auto source = native ? array : py::array::ensure(array.attr("astype")(is_unsigned ? "=u8" : "=i8"));
    if (!source) throw py::error_already_set();
    const auto size = size_t(source.itemsize());
    const auto* base = static_cast<const unsigned char*>(source.data());
    out.values.resize(size_t(rows));
    for (py::ssize_t row = 0; row < rows; ++row) {
        std::uint64_t raw = 0;  // each value copied once, then checked
        std::memcpy(&raw, base + row * source.strides(0), size);
        if (!is_unsigned && size < 8 && (raw >> (8 * size - 1) & 1)) raw |= ~std::uint64_t{0} << (8 * size);
        const long long parsed = static_cast<long long>(raw);
        const bool fits = is_unsigned ? raw <= 1000 : parsed >= -1000 && parsed <= 1000;
        if (!fits)  // the kernel names the real range; this keeps int32 exact
            throw InvalidHand("row " + std::to_string(row) + ": " + name + "=" +
                              (is_unsigned ? std::to_string(raw) : std::to_string(parsed)) + " is out of range");
        out.values[size_t(row)] = std::int32_t(parsed);
    }
    return out;
}

template <typename Out>
py::array_t<Out> run_batch(py::handle counts_arg, py::handle jokers, py::handle melds, py::handle forms_arg,
                           py::handle joker_kinds, py::handle threads_arg, SizeRule rule,
                           long long (*kernel)(const BatchRows&, long long, long long, Out*, BatchError*)) {
    if (!py::isinstance<py::array>(counts_arg))
        throw InvalidHand(std::string("counts must be a numpy uint8 array of shape (N, 34), got ") +
                          Py_TYPE(counts_arg.ptr())->tp_name);
    const auto counts = py::reinterpret_borrow<py::array>(counts_arg);
    if (counts.ndim() != 2 || counts.shape(1) != kNumKinds) throw InvalidHand("counts must have shape (N, 34)");
    if (counts.dtype().kind() != 'u' || counts.dtype().itemsize() != 1)
        throw InvalidHand("counts must have dtype uint8, got " + std::string(py::str(counts.dtype())));
    if (!(counts.flags() & py::array::c_style)) throw InvalidHand("counts must be C-contiguous");
    const py::ssize_t count = counts.shape(0);
    long long forms = 0, threads = 0;
    BatchRows rows;
    if (!read_int(forms_arg.ptr(), "forms", 1, kAllForms, forms) ||
        !read_int(threads_arg.ptr(), "threads", 1, 256, threads))
        throw py::error_already_set();
    const Read mask = read_joker_kinds(joker_kinds.ptr(), rows.joker_kinds);
    if (mask == Read::kFailed) throw py::error_already_set();
    if (mask == Read::kNotPlain) throw InvalidHand("joker_kinds must be a 34-bit mask or None");
    const PerRow joker_rows = per_row(jokers, count, "jokers", kMaxJokers);
    const PerRow meld_rows = per_row(melds, count, "melds", kMaxMelds);
    rows.counts = static_cast<const std::uint8_t*>(counts.data());
    rows.forms = unsigned(forms);
    rows.jokers = joker_rows.values.empty() ? nullptr : joker_rows.values.data();
    rows.melds = meld_rows.values.empty() ? nullptr : meld_rows.values.data();
    rows.joker_scalar = joker_rows.scalar;
    rows.meld_scalar = meld_rows.scalar;
    py::array_t<Out> result(count);
    Out* out = result.mutable_data();

    // Each worker stops at its first invalid row; the lowest such row is reported.
    const int workers = int(std::max<py::ssize_t>(1, std::min<py::ssize_t>(threads, count)));
    std::vector<long long> bad_row(static_cast<size_t>(workers), -1);
    std::vector<BatchError> errors(static_cast<size_t>(workers));
    auto work = [&](int worker) {
        const long long begin = count * worker / workers, end = count * (worker + 1) / workers;
        bad_row[size_t(worker)] = kernel(rows, begin, end, out, &errors[size_t(worker)]);
    };
    {
        py::gil_scoped_release release;  // holding it would also stall Python's garbage collector
        Tables::get();                   // build before the workers start
        run_workers(workers, work);
    }
    for (int w = 0; w < workers; ++w) {
        if (bad_row[size_t(w)] < 0) continue;
        const BatchError& error = errors[size_t(w)];
        const HandQuery bad{error.counts.data(), error.jokers, error.melds, rows.forms, rows.joker_kinds};
        throw InvalidHand("row " + std::to_string(bad_row[size_t(w)]) + ": " + describe_error(bad, rule, error.code));
    }
    return result;
}

}  // namespace

void register_batch(py::module_& m) {
    m.def(
        "shanten_batch",
        [](py::handle counts, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds,
           py::handle threads) {
            return run_batch<std::int8_t>(counts, jokers, melds, forms, joker_kinds, threads, SizeRule::kAny,
                                          shanten_rows);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        py::arg("threads"), "Shanten of every row (see hupai.shanten_batch).");
    m.def(
        "is_win_batch",
        [](py::handle counts, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds,
           py::handle threads) {
            return run_batch<bool>(counts, jokers, melds, forms, joker_kinds, threads, SizeRule::kComplete,
                                   is_win_rows);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        py::arg("threads"), "Completeness of every row (see hupai.is_win_batch).");
}

}  // namespace hupai::binding
