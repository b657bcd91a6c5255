#include "sims/pic/pic_poisson.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "sims/pic/pic_family.hpp"

namespace sb {

PicPoissonSim::HostState::HostState(const RunConfig& c)
    : tables_(c), setup_(pic::poisson_setup(c)), field_(setup_.mesh) {}

size_t PicFamily::variant(const RunConfig& c) {
  if (pic::field().text(c) == "poisson") return Variants::index_of<PicPoissonSim>();
  for (const DeclaredParameter* p : {&fields::grid(), &fields::field_solver()}) {
    if (p->given(c)) {
      throw UsageError(fmt::format("{}: {} applies with --field poisson only; the field is mock",
                                   p->flag, c.declared_values.at(p->key)));
    }
  }
  return Variants::index_of<PicSim>();
}

}  // namespace sb
