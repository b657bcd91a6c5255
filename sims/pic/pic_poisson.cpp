#include "sims/pic/pic_poisson.hpp"

namespace sb {

PicPoissonSim::Setup::Setup(const RunConfig& c)
    : tables(std::make_shared<const PicSim::Setup>(c)), poisson(pic::poisson_setup(c)) {}

PicPoissonSim::HostState::HostState(std::shared_ptr<const Setup> setup)
    : setup_(std::move(setup)), tables_(setup_->tables), field_(setup_->poisson.mesh) {}

}  // namespace sb
