//! The games, one folder each: rules, notation and evaluation together.

pub mod connect4;
pub mod hexstrat;
pub mod invector;
pub mod pig;
