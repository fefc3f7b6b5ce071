// The _core extension module: one register_* call per area (register.hpp). No logic lives here.
#include "register.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "hupai's C++ core: table-driven hand analysis (private; use the hupai package)";
    hupai::binding::register_errors(m);  // first: every other area raises InvalidHand
    hupai::binding::register_analysis(m);
    hupai::binding::register_batch(m);
    hupai::binding::register_wall(m);
    hupai::binding::register_engine(m);
    hupai::binding::register_turn(m);
    hupai::binding::register_chain(m);
    hupai::binding::register_features(m);
    hupai::binding::register_snapshot(m);
    register_wild(m);
    register_zipai(m);
}
