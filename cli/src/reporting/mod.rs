//! Reporting: statistics, the summary of a run's rows, speed, charts, the HTML pages and
//! pictures of positions. It reads rows ([`crate::record`]) and knows nothing of how they
//! were played.

pub mod charts;
pub mod html;
pub mod picture;
pub mod plots;
pub mod speed;
pub mod stats;
pub mod summary;
