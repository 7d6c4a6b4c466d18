use super::*;

#[test]
fn reads_regular_files_up_to_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.txt");
    std::fs::write(&path, b"12345").unwrap();
    assert_eq!(read(&path, 5).unwrap(), b"12345");
    assert!(matches!(read(&path, 4), Err(ReadError::TooLarge(4))));
    assert!(matches!(
        read(dir.path(), 10),
        Err(ReadError::NotRegular("a folder"))
    ));
    assert!(matches!(
        read(&dir.path().join("missing"), 10),
        Err(ReadError::Io(_))
    ));
}

#[cfg(unix)]
#[test]
fn pipes_and_devices_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("x.go");
    let made = std::process::Command::new("mkfifo")
        .env("HOME", dir.path())
        .arg(&fifo)
        .status();
    assert!(made.unwrap().success());
    let e = read(&fifo, 10).unwrap_err();
    assert_eq!(e.to_string(), "not a regular file but a named pipe (FIFO)");
    let e = read(Path::new("/dev/zero"), 10).unwrap_err();
    assert_eq!(e.to_string(), "not a regular file but a character device");
}

#[test]
fn sizes_read_like_people_write_them() {
    assert_eq!(size(4 * 1024 * 1024), "4 MiB");
    assert_eq!(size(64 * 1024), "64 KiB");
    assert_eq!(size(1000), "1000 bytes");
}
