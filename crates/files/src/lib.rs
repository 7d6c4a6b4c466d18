//! Files and bytes, safely: bounded reads of regular files, paths as the file system resolves
//! them, content hashes, and giving freed memory back between the stages of a build.

pub mod digest;
pub mod heap;
pub mod real_path;
pub mod regular;
