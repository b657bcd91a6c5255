// The configurations every CPU engine is checked on against cpu-serial (tests/cpu/test_engines.cpp,
// and the example scheduler in tests/cpu/test_examples.cpp): every sim, the example sim included,
// spawning, dying, other seeds.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/precision.hpp"
#include "core/run_config.hpp"
#include "sims/catalog.hpp"
#include "sims/mvp/mvp.hpp"
#include "sims/pic/pic.hpp"
#include "sims/toy/toy.hpp"
#include "tests/support/air_config.hpp"

// A namespace of their own: sb::pic and sb::air are the sims' namespaces.
namespace sb::engine_cases {

inline RunConfig config(const std::string& sim, uint64_t init_n, uint32_t steps) {
  RunConfig c;
  c.sim = sim;
  c.init_n = init_n;
  if (steps > 0) sb::steps_parameter().set(c, steps);
  return c;
}

struct Case {
  const char* name;
  RunConfig config;
};

inline RunConfig pic(uint64_t init_n, uint32_t poisson, uint32_t mobility, double chance) {
  RunConfig c = config("pic", init_n, 0);
  sb::pic::poisson_steps().set(c, poisson);
  sb::pic::mobility_steps().set(c, mobility);
  if (chance >= 0) sb::pic::collision_chance().set(c, chance);
  return c;
}

inline RunConfig air(const std::string& gas, double td, uint64_t init_n, uint32_t phases) {
  return with_air(config("air", init_n, 0), gas, td, phases);
}

// ccp's case `number` at a reduced size: `cells` cells, `steps` steps per RF period, `periods`
// periods (the last averaged), init_n particles.
inline RunConfig ccp(int number, uint64_t init_n, uint32_t cells, uint32_t steps,
                     uint32_t periods) {
  RunConfig c = config("ccp", init_n, 0);
  const auto set = [&c](const std::string& key, uint64_t value) {
    for (const DeclaredParameter* p : find_sim("ccp").parameters) {
      if (p->key == key) p->set(c, value);
    }
  };
  set("case", number);
  set("cells", cells);
  set("steps_per_period", steps);
  set("periods", periods);
  set("average_periods", 1);
  return c;
}

inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

inline std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"toy_one_particle", config("toy", 1, 3000)});
  out.push_back({"toy_center", config("toy", 200, 2000)});
  RunConfig column = config("toy", 3000, 2000);  // about 2.6 million particles at the end
  sb::toy::layout().set(column, "column");
  out.push_back({"toy_column", column});
  out.push_back({"mvp_default_chance", config("mvp", 20000, 500)});
  RunConfig heavy = config("mvp", 1000, 150);  // about 1.5 million particles at the end
  sb::mvp::split_chance().set(heavy, 5);
  out.push_back({"mvp_heavy_spawning", heavy});
  RunConfig skip = config("mvp", 5000, 400);
  sb::mvp::split_chance().set(skip, 1);
  sb::mvp::skip_spawned().set(skip, true);
  out.push_back({"mvp_skip_spawned", skip});
  RunConfig seeded = config("mvp", 3000, 300);
  sb::mvp::split_chance().set(seeded, 0.5);
  seeded.seed = 0xDEADBEEFCAFEull;
  out.push_back({"mvp_other_seed", seeded});
  out.push_back({"pic_synthetic", pic(20000, 3, 300, -1)});
  for (const double chance : {30.0, 60.0, 90.0}) {
    out.push_back({chance == 30   ? "pic_chance_30"
                   : chance == 60 ? "pic_chance_60"
                                  : "pic_chance_90",
                   pic(2000, 2, 150, chance)});
  }
  out.push_back({"pic_extinction", pic(20, 5, 200, 90)});
  RunConfig poisson = pic(3000, 3, 100, 30);  // the Poisson field on a 32^3 mesh
  sb::pic::field().set(poisson, "poisson");
  sb::fields::grid().set(poisson, 32);
  out.push_back({"pic_poisson_field", poisson});
  // The example sim (examples/walk_sim.hpp): walkers split and die at the strip's ends.
  RunConfig walk = config("walk", 3000, 600);
  sb::mvp::split_chance().set(walk, 1);
  out.push_back({"walk_split_and_die", walk});
  out.push_back({"air_ionization", air("N2:1", 800, 50, 3)});
  out.push_back({"air_attachment", air("O2:1", 20, 200, 3)});
  // The conventions other than the defaults: energy shared at random, three-body attachment by the
  // partial density.
  RunConfig conventions = air("N2:0.8,O2:0.2", 600, 50, 3);
  sb::air::ionization_sharing().set(conventions, "uniform");
  sb::air::three_body_density().set(conventions, "partial");
  out.push_back({"air_uniform_sharing_partial_three_body", conventions});
  RunConfig magnetic = air("N2:0.8,O2:0.2", 300, 100, 2);
  sb::air::magnetic_field().set(magnetic, 20);
  sb::air::field_angle().set(magnetic, 60);
  out.push_back({"air_magnetic", magnetic});
  RunConfig thermal = air("N2:0.78,O2:0.21,Ar:0.01", 120, 100, 2);
  sb::air::thermal_gas().set(thermal, true);
  out.push_back({"air_three_gases_thermal", thermal});
  // The space charge on a 16^3 mesh, the electrons starting in a ball of 2 um.
  RunConfig space_charge = air("N2:1", 800, 50, 3);
  sb::air::space_charge().set(space_charge, true);
  sb::fields::grid().set(space_charge, 16);
  sb::air::init_radius().set(space_charge, 2e-6);
  out.push_back({"air_space_charge", space_charge});
  // ccp's first and last cases at a reduced size: electrons and ions absorbed at the electrodes,
  // pairs born of ionization.
  out.push_back({"ccp_case1", ccp(1, 2000, 32, 200, 3)});
  out.push_back({"ccp_case4", ccp(4, 2000, 32, 400, 2)});
  // Reduced precision (core/precision.hpp): pic's mock field and air's applied fields, the latter
  // magnetic (sub-stepped flights) and with a thermal gas (elastic scattering off moving
  // molecules).
  for (const char* p : {"mixed", "single"}) {
    const bool mixed = std::string(p) == "mixed";
    RunConfig pic_p = pic(20000, 3, 300, -1);
    sb::precision::parameter().set(pic_p, p);
    out.push_back({mixed ? "pic_mixed_precision" : "pic_single_precision", pic_p});
    RunConfig air_p = air("N2:0.78,O2:0.21,Ar:0.01", 300, 100, 2);
    sb::air::magnetic_field().set(air_p, 20);
    sb::air::field_angle().set(air_p, 60);
    sb::air::thermal_gas().set(air_p, true);
    sb::precision::parameter().set(air_p, p);
    out.push_back({mixed ? "air_mixed_precision" : "air_single_precision", air_p});
  }
  return out;
}

}  // namespace sb::engine_cases
