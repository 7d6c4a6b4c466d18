//! Reading what portolan is given, safely: bounded reads of regular files, paths as the file
//! system resolves them, and giving freed memory back between the stages of a build.

pub mod heap;
pub mod real_path;
pub mod regular;
