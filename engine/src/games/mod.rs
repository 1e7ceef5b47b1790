//! The games, one folder each: rules, notation and evaluation together.

pub mod invector;
