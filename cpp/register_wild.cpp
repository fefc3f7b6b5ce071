// pybind11 registration of the wild-tile search (wild.hpp): plain data in (34-byte buffers, ints), a bool out.
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>

#include "wild.hpp"

namespace py = pybind11;

namespace {

// A buffer of 34 unsigned bytes (bytes, bytearray, a uint8 numpy array), copied out.
hupai::KindCounts read_kind_bytes(const py::buffer& data, const char* name) {
    const py::buffer_info info = data.request();
    if (info.ndim != 1 || info.size != hupai::kNumKinds || info.itemsize != 1 ||
        (info.format != "B" && info.format != "b")) {
        throw hupai::InvalidHand(std::string(name) + " must be 34 unsigned bytes (one per kind), got " +
                                 std::to_string(info.size) + " items of format '" + info.format + "'");
    }
    if (info.strides[0] != 1) throw hupai::InvalidHand(std::string(name) + " must be contiguous");
    hupai::KindCounts out{};
    std::memcpy(out.data(), info.ptr, hupai::kNumKinds);
    return out;
}

}  // namespace

void register_wild(py::module_& m) {
    m.def(
        "fits_with_jokers",
        [](const py::buffer& counts, int jokers, int sets, int pairs, const py::buffer& room) {
            const hupai::KindCounts natural = read_kind_bytes(counts, "counts");
            const hupai::KindCounts limit = read_kind_bytes(room, "room");
            return hupai::fits_with_jokers(natural, jokers, sets, pairs, limit);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("sets"), py::arg("pairs"), py::arg("room"),
        "Can `counts` plus `jokers` wild tiles form exactly `sets` melds and `pairs` pairs, each joker standing\n"
        "for kind k using one unit of room[k]? (see hupai.analysis.fits_with_jokers)");
}
