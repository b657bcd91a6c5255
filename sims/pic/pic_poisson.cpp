#include "sims/pic/pic_poisson.hpp"

namespace sb {

PicPoissonSim::HostState::HostState(const RunConfig& c)
    : tables_(c), setup_(pic::poisson_setup(c)), field_(setup_.mesh) {}

}  // namespace sb
