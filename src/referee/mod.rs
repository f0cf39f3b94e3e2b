//! Driving engines in other processes over the protocol: a GTP client that
//! survives anything the engine does, and the reply-latency benchmark.

pub mod client;
pub mod latency;
