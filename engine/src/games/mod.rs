//! The games, one folder each: rules, notation and evaluation together.

pub mod apv;
mod colour;
pub mod connect4;
pub mod hexstrat;
pub mod invector;
pub mod pig;
pub mod romgon;
pub mod threewill;
