//! Container image references split as the OCI distribution reference grammar reads them:
//! `[registry/]repository[:tag][@digest]`.

/// A reference's parts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parts {
    pub registry: String,
    pub repository: String,
    pub tag: String,
    pub digest: String,
}

/// Longest reference read (the grammar allows 255 for the name).
const MAX_REFERENCE: usize = 512;

/// Splits `[registry/]repository[:tag][@digest]`; None for anything that is not one
/// (a template action, a variable, upper-case letters in the repository, spaces).
pub fn split(reference: &str) -> Option<Parts> {
    if reference.is_empty() || reference.len() > MAX_REFERENCE {
        return None;
    }
    let (name_tag, digest) = match reference.split_once('@') {
        Some((n, d)) => {
            let (algo, hex) = d.split_once(':')?;
            let ok = !algo.is_empty()
                && algo
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+._-".contains(c))
                && hex.len() >= 32
                && hex.chars().all(|c| c.is_ascii_hexdigit());
            if !ok {
                return None;
            }
            (n, d.to_string())
        }
        None => (reference, String::new()),
    };
    let last_slash = name_tag.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match name_tag[last_slash..].rfind(':') {
        Some(i) if last_slash + i + 1 < name_tag.len() => (
            &name_tag[..last_slash + i],
            name_tag[last_slash + i + 1..].to_string(),
        ),
        Some(_) => return None,
        None => (name_tag, String::new()),
    };
    let tag_ok = tag.is_empty()
        || (tag.len() <= 128
            && !tag.starts_with(['.', '-'])
            && tag
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)));
    if !tag_ok {
        return None;
    }
    let (registry, repository) = match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" => {
            (first.to_string(), rest.to_string())
        }
        _ => (String::new(), name.to_string()),
    };
    let registry_ok = registry
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    let repository_ok = !repository.is_empty()
        && repository.split('/').all(|part| {
            !part.is_empty()
                && part.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        });
    (registry_ok && repository_ok).then_some(Parts {
        registry,
        repository,
        tag,
        digest,
    })
}

#[cfg(test)]
mod tests;
