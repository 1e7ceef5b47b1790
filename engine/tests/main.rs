//! The integration tests of `engine`, in one test binary (one link instead of one
//! per file): the rules: perft against data files and naive models, rules, conformance. Each module is one concern; the shared helpers are in the modules
//! declared first.

mod common;
mod hexstrat_support;
mod naive_apv;
mod naive_connect4;
mod naive_hexstrat;
mod naive_invector;
mod naive_romgon;
mod naive_threewill;

mod actions;
mod apv_actions;
mod apv_conformance;
mod apv_perft;
mod apv_picture;
mod coin_nim;
mod common_luck;
mod connect4;
mod connect4_perft;
mod hexstrat;
mod hexstrat_combat;
mod hexstrat_knobs;
mod hexstrat_perft;
mod hexstrat_picture;
mod invector_conformance;
mod invector_perft;
mod invector_picture;
mod null_move;
mod pig;
mod pig_perft;
mod pig_picture;
mod romgon_conformance;
mod romgon_perft;
mod romgon_picture;
mod threewill;
mod threewill_perft;
mod threewill_picture;
