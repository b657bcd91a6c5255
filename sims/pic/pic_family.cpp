#include "sims/pic/pic_family.hpp"

namespace sb {
namespace pic {

const DeclaredParameter& field() {
  static const DeclaredParameter p = recorded_when_given(choice_parameter(
      "field", "--field",
      "pic: the field, mock (default; seed 003's accelerations from neighbour counts) or poisson "
      "(charge deposition, FFT Poisson solve, the field read at each particle)",
      "field model", {"mock", "poisson"}, "mock"));
  return p;
}

}  // namespace pic

size_t PicFamily::variant(const RunConfig& c) {
  if (pic::field().text(c) == "poisson") {
    precision::refuse_reduced(c, "pic's Poisson field is solved and read in double");
    return Variants::index_of<PicPoissonSim>();
  }
  fields::refuse_mesh_options(c, "--field poisson", "the field is mock");
  return precision::variant_of<Variants, PicSimIn>(c);
}

}  // namespace sb
