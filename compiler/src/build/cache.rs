//! The engine cache: one directory per user (or per project, or wherever `--cache-dir` says) holding an
//! engine crate per distinct build and one Cargo target directory they share, so that the runtime and
//! its dependencies are compiled once.
//!
//! ```text
//! CACHE/
//!   target/                      shared by every engine crate (Cargo locks it while it builds)
//!   engines/vdl-engine-chess-0123456789abcdef/
//!     Cargo.toml, Cargo.lock, src/   the engine crate
//!     engine                     the finished engine, present only once a build has succeeded
//!     .lock                      held while the crate is written and built
//! ```
//!
//! A build is named by a fingerprint of the rule file, vdl's version, the vdl program and the generated
//! code, so the same file built twice finds its engine, and a changed file (or a vdl that generates other code)
//! gets a crate of its own: builds of different files never share a crate, and concurrent builds of
//! the same file take turns on its lock, the second finding the first one's engine.
//!
//! The cache does not grow without end: after each build, [`Cache::prune`] keeps the
//! [`KEEP_PER_GAME`] engines of each game most recently built or found and removes the others' crates
//! and their artifacts in the shared target directory (an engine another build holds locked stays).

use std::fs::File;
use std::path::{Path, PathBuf};

/// The name of a finished engine inside its crate directory.
const ENGINE: &str = "engine";

/// The environment variable naming the cache directory.
pub const CACHE_DIR_VARIABLE: &str = "VDL_CACHE_DIR";

/// How many engines of one game (crates of the same package name) the cache keeps after a build: the
/// most recently built or found ones.
pub const KEEP_PER_GAME: usize = 3;

/// An engine cache rooted at a directory.
#[derive(Clone, Debug)]
pub struct Cache {
    root: PathBuf,
}

/// What a build produces or finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The engine inside the cache.
    pub engine: PathBuf,
    /// Whether it was already there: nothing was compiled.
    pub up_to_date: bool,
}

/// One engine to build: the game's name (for the package), the rule file's text, the generated code
/// and the build's options.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The game's identifier.
    pub game: &'a str,
    /// The rule file's text.
    pub source: &'a str,
    /// The generated Rust module.
    pub code: &'a str,
    /// Whether to build with thin link-time optimisation (slower to build, up to 10% faster).
    pub lto: bool,
}

/// What the cache tells its caller while it works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Another build of the same engine holds the lock; this one waits for it.
    Waiting(PathBuf),
    /// The engine crate is written and about to be compiled in this directory.
    Compiling(PathBuf),
}

impl Cache {
    /// A cache rooted at `root` (created when first used).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Cache { root: root.into() }
    }

    /// The cache of this user: `$VDL_CACHE_DIR`, else `$XDG_CACHE_HOME/vdl`, else `~/.cache/vdl`, else a
    /// `vdl-cache` directory under the system's temporary directory.
    pub fn for_user() -> Self {
        let from = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let root = from(CACHE_DIR_VARIABLE)
            .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("vdl")))
            .or_else(|| from("HOME").map(|d| d.join(".cache").join("vdl")))
            .unwrap_or_else(|| std::env::temp_dir().join("vdl-cache"));
        Cache::new(root)
    }

    /// The cache's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The Cargo target directory the engine crates share.
    pub fn target_dir(&self) -> PathBuf {
        self.root.join("target")
    }

    /// The crate directory of a build.
    pub fn crate_dir(&self, request: &Request) -> PathBuf {
        self.root.join("engines").join(format!(
            "{}-{:016x}",
            super::package_name(request.game),
            fingerprint(request)
        ))
    }

    /// Finds the engine of `request` in the cache, or writes its crate and has `compile` build it.
    /// `compile` gets the crate directory, the package name and the shared target directory, and
    /// returns the binary it built, which is then moved into the cache.
    ///
    /// # Errors
    ///
    /// Returns a message when the cache cannot be written or `compile` fails.
    pub fn build(
        &self,
        request: &Request,
        progress: &mut dyn FnMut(Progress),
        compile: &dyn Fn(&Path, &str, &Path) -> Result<PathBuf, String>,
    ) -> Result<Built, String> {
        let dir = self.crate_dir(request);
        let engine = dir.join(ENGINE);
        std::fs::create_dir_all(&dir).map_err(|e| cannot("create", &dir, e))?;
        let lock_path = dir.join(".lock");
        let lock = File::create(&lock_path).map_err(|e| cannot("create", &lock_path, e))?;
        if lock.try_lock().is_err() {
            progress(Progress::Waiting(dir.clone()));
            lock.lock().map_err(|e| cannot("lock", &lock_path, e))?;
        }
        if engine.is_file() {
            // Found: the most recently used engines are the ones pruning keeps.
            let _ = File::options()
                .write(true)
                .open(&engine)
                .and_then(|f| f.set_modified(std::time::SystemTime::now()));
            return Ok(Built {
                engine,
                up_to_date: true,
            });
        }
        let package = format!(
            "{}-{:016x}",
            super::package_name(request.game),
            fingerprint(request)
        );
        super::write_crate(&dir, &package, request.code, request.lto)
            .map_err(|e| cannot("write", &dir, e))?;
        progress(Progress::Compiling(dir.clone()));
        let target = self.target_dir();
        let binary = compile(&dir, &package, &target)?;
        install(&binary, &engine)?;
        Ok(Built {
            engine,
            up_to_date: false,
        })
    }
}

impl Cache {
    /// Removes, for each game, the engine crates beyond the `keep` most recently used (built, or found
    /// by a build: the time of their engine, or of their directory when the build never finished),
    /// with their artifacts in the shared target directory. A crate whose lock a build holds is left
    /// alone. Returns the crate directories removed.
    ///
    /// # Errors
    ///
    /// Returns a message when a directory cannot be read or removed.
    pub fn prune(&self, keep: usize) -> Result<Vec<PathBuf>, String> {
        let engines = self.root.join("engines");
        let Ok(entries) = std::fs::read_dir(&engines) else {
            return Ok(Vec::new());
        };
        // Package name without its fingerprint -> (last use, crate directory).
        let mut games: std::collections::BTreeMap<String, Vec<(std::time::SystemTime, PathBuf)>> =
            std::collections::BTreeMap::new();
        for entry in entries {
            let dir = entry.map_err(|e| cannot("read", &engines, e))?.path();
            let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(game) = game_of(name) else {
                continue;
            };
            let used = [dir.join(ENGINE), dir.clone()]
                .iter()
                .find_map(|p| p.metadata().and_then(|m| m.modified()).ok())
                .unwrap_or(std::time::UNIX_EPOCH);
            games.entry(game.to_string()).or_default().push((used, dir));
        }
        let mut removed = Vec::new();
        for crates in games.values_mut() {
            // Newest first; ties by name, so that the choice does not depend on the listing order.
            crates.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            for (_, dir) in crates.iter().skip(keep) {
                let lock_path = dir.join(".lock");
                let lock = match File::open(&lock_path) {
                    Ok(lock) => Some(lock),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    Err(e) => return Err(cannot("open", &lock_path, e)),
                };
                if lock.as_ref().is_some_and(|l| l.try_lock().is_err()) {
                    continue;
                }
                let package = dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                self.remove_artifacts(&package)?;
                std::fs::remove_dir_all(dir).map_err(|e| cannot("remove", dir, e))?;
                removed.push(dir.clone());
            }
        }
        Ok(removed)
    }

    /// Removes what Cargo built for `package` in the shared target directory, in every profile: its
    /// binary, its dependency file, and its `deps`, `.fingerprint`, `build` and `incremental` entries.
    fn remove_artifacts(&self, package: &str) -> Result<(), String> {
        let target = self.target_dir();
        let Ok(profiles) = std::fs::read_dir(&target) else {
            return Ok(());
        };
        let crate_name = package.replace('-', "_");
        let prefixes = [format!("{package}-"), format!("{crate_name}-")];
        let exact = [package.to_string(), format!("{package}.d")];
        for profile in profiles.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
            let mut places = vec![profile.clone()];
            for sub in ["deps", ".fingerprint", "build", "incremental"] {
                places.push(profile.join(sub));
            }
            for place in places {
                let Ok(entries) = std::fs::read_dir(&place) else {
                    continue;
                };
                for path in entries.flatten().map(|e| e.path()) {
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let ours = exact.contains(&name)
                        || (place != profile
                            && prefixes.iter().any(|p| name.starts_with(p.as_str())));
                    if !ours {
                        continue;
                    }
                    let result = if path.is_dir() {
                        std::fs::remove_dir_all(&path)
                    } else {
                        std::fs::remove_file(&path)
                    };
                    result.map_err(|e| cannot("remove", &path, e))?;
                }
            }
        }
        Ok(())
    }
}

/// The package name of an engine crate's directory without its fingerprint (`vdl-engine-chess` for
/// `vdl-engine-chess-0123456789abcdef`), or `None` for a directory that is not one.
fn game_of(name: &str) -> Option<&str> {
    let (game, fingerprint) = name.rsplit_once('-')?;
    (fingerprint.len() == 16 && fingerprint.bytes().all(|b| b.is_ascii_hexdigit())).then_some(game)
}

/// Copies `from` to `to` through a temporary file renamed into place, so that a reader (or a running
/// engine at `to`) never sees a partial file.
///
/// # Errors
///
/// Returns a message naming the file that could not be written.
pub fn install(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| cannot("create", parent, e))?;
    }
    let file_name = to
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = to.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    std::fs::copy(from, &temporary).map_err(|e| {
        format!(
            "cannot copy {} to {}: {e}",
            from.display(),
            temporary.display()
        )
    })?;
    std::fs::rename(&temporary, to).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        cannot("write", to, e)
    })
}

fn cannot(what: &str, path: &Path, error: std::io::Error) -> String {
    format!("cannot {what} {}: {error}", path.display())
}

/// The fingerprint of a build: FNV-1a (64 bits) over vdl's version, the identity of the running vdl
/// program (its size and modification time: a vdl built from changed runtime sources links against
/// them, so its engines must be built anew), the rule file, the generated code (each preceded by its
/// length) and the options.
pub fn fingerprint(request: &Request) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut feed = |bytes: &[u8]| {
        for &byte in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
        }
    };
    feed(env!("CARGO_PKG_VERSION").as_bytes());
    feed(&program_identity());
    feed(request.source.as_bytes());
    feed(request.code.as_bytes());
    feed(&[u8::from(request.lto)]);
    hash
}

/// The running program's size and modification time, or nothing when they cannot be read.
fn program_identity() -> Vec<u8> {
    let Some(metadata) = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::metadata(exe).ok())
    else {
        return Vec::new();
    };
    let modified = metadata
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut bytes = metadata.len().to_le_bytes().to_vec();
    bytes.extend(modified.to_le_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A compile step that writes a fake binary and counts its calls.
    fn fake_compile(
        calls: &AtomicUsize,
    ) -> impl Fn(&Path, &str, &Path) -> Result<PathBuf, String> + '_ {
        move |dir: &Path, package: &str, target: &Path| {
            calls.fetch_add(1, Ordering::SeqCst);
            assert!(dir.join("Cargo.toml").is_file());
            assert!(dir.join("src/generated.rs").is_file());
            std::fs::create_dir_all(target).map_err(|e| e.to_string())?;
            let binary = target.join(package);
            std::fs::write(&binary, format!("engine of {package}")).map_err(|e| e.to_string())?;
            Ok(binary)
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("vdl-cache-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    const SOURCE: &str = "game mini\n";
    const CODE: &str = "// generated\n";

    #[test]
    fn a_second_build_is_a_no_op_and_a_change_rebuilds() {
        let root = scratch("rebuild");
        let cache = Cache::new(&root);
        let calls = AtomicUsize::new(0);
        let compile = fake_compile(&calls);
        let request = Request {
            game: "mini",
            source: SOURCE,
            code: CODE,
            lto: false,
        };
        let first = cache.build(&request, &mut |_| {}, &compile).expect("built");
        assert!(!first.up_to_date);
        assert!(first.engine.starts_with(&root));
        let second = cache.build(&request, &mut |_| {}, &compile).expect("found");
        assert!(second.up_to_date);
        assert_eq!(second.engine, first.engine);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        let edited = Request {
            source: "game mini // edited\n",
            ..request
        };
        let third = cache
            .build(&edited, &mut |_| {}, &compile)
            .expect("rebuilt");
        assert!(!third.up_to_date);
        assert_ne!(third.engine, first.engine);
        let regenerated = Request {
            code: "// other code\n",
            ..request
        };
        assert!(
            !cache
                .build(&regenerated, &mut |_| {}, &compile)
                .expect("rebuilt")
                .up_to_date
        );
        let optimised = Request {
            lto: true,
            ..request
        };
        let built = cache.build(&optimised, &mut |_| {}, &compile);
        assert!(!built.expect("rebuilt").up_to_date);
        let manifest = |r: &Request| {
            std::fs::read_to_string(cache.crate_dir(r).join("Cargo.toml")).expect("a manifest")
        };
        assert!(manifest(&optimised).contains("lto = \"thin\""));
        assert!(!manifest(&request).contains("lto"));
        assert_eq!(calls.load(Ordering::SeqCst), 4);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_failed_build_leaves_no_engine() {
        let root = scratch("failed");
        let cache = Cache::new(&root);
        let request = Request {
            game: "mini",
            source: SOURCE,
            code: CODE,
            lto: false,
        };
        let failing = |_: &Path, _: &str, _: &Path| -> Result<PathBuf, String> { Err("no".into()) };
        assert_eq!(
            cache.build(&request, &mut |_| {}, &failing),
            Err("no".into())
        );
        let calls = AtomicUsize::new(0);
        let built = cache
            .build(&request, &mut |_| {}, &fake_compile(&calls))
            .expect("built");
        assert!(!built.up_to_date);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn concurrent_builds_of_one_file_compile_once() {
        let root = scratch("concurrent");
        let cache = Cache::new(&root);
        let calls = AtomicUsize::new(0);
        let request = Request {
            game: "mini",
            source: SOURCE,
            code: CODE,
            lto: false,
        };
        let slow = |dir: &Path, package: &str, target: &Path| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            fake_compile(&calls)(dir, package, target)
        };
        let results: Vec<Built> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..3)
                .map(|_| scope.spawn(|| cache.build(&request, &mut |_| {}, &slow)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic").expect("built"))
                .collect()
        });
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(results.iter().filter(|b| !b.up_to_date).count(), 1);
        assert!(results.iter().all(|b| b.engine == results[0].engine));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn different_files_get_different_crates() {
        let cache = Cache::new("/nonexistent");
        let chess = Request {
            game: "chess",
            source: "game chess\n",
            code: CODE,
            lto: false,
        };
        let other = Request {
            source: "game chess // another checkout\n",
            ..chess
        };
        assert_ne!(cache.crate_dir(&chess), cache.crate_dir(&other));
        assert!(cache
            .crate_dir(&chess)
            .starts_with(Path::new("/nonexistent/engines")));
    }

    #[test]
    fn pruning_keeps_the_most_recent_engines_of_each_game() {
        let root = scratch("prune");
        let cache = Cache::new(&root);
        let calls = AtomicUsize::new(0);
        let compile = fake_compile(&calls);
        let sources: Vec<String> = (0..5).map(|i| format!("game mini // {i}\n")).collect();
        let requests: Vec<Request> = sources
            .iter()
            .map(|source| Request {
                game: "mini",
                source,
                code: CODE,
                lto: false,
            })
            .collect();
        let other = Request {
            game: "other",
            source: SOURCE,
            code: CODE,
            lto: false,
        };
        let base = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for (i, request) in requests.iter().chain([&other]).enumerate() {
            let built = cache.build(request, &mut |_| {}, &compile).expect("built");
            // Built one minute apart, the first oldest.
            let when = base + std::time::Duration::from_secs(60 * i as u64);
            File::options()
                .write(true)
                .open(&built.engine)
                .and_then(|f| f.set_modified(when))
                .expect("dated");
        }
        // The oldest is found again by a build: it becomes the most recent.
        assert!(
            cache
                .build(&requests[0], &mut |_| {}, &compile)
                .expect("found")
                .up_to_date
        );
        // An artifact of the second build in the shared target directory, and one of another game.
        let package = |r: &Request| {
            cache
                .crate_dir(r)
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        };
        let deps = cache.target_dir().join("release/deps");
        std::fs::create_dir_all(&deps).expect("deps");
        let artifact = deps.join(format!(
            "{}-0a1b2c",
            package(&requests[1]).replace('-', "_")
        ));
        let kept_artifact = deps.join(format!("{}-0a1b2c", package(&other).replace('-', "_")));
        std::fs::write(&artifact, "").expect("artifact");
        std::fs::write(&kept_artifact, "").expect("artifact");
        let mut removed = cache.prune(3).expect("pruned");
        removed.sort();
        let mut expected = vec![cache.crate_dir(&requests[1]), cache.crate_dir(&requests[2])];
        expected.sort();
        assert_eq!(removed, expected);
        for (i, request) in requests.iter().enumerate() {
            assert_eq!(
                cache.crate_dir(request).exists(),
                ![1, 2].contains(&i),
                "{i}"
            );
        }
        assert!(cache.crate_dir(&other).exists());
        assert!(!artifact.exists() && kept_artifact.exists());
        // Nothing more to remove.
        assert_eq!(cache.prune(3).expect("pruned"), Vec::<PathBuf>::new());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn install_replaces_the_target() {
        let root = scratch("install");
        std::fs::create_dir_all(&root).expect("scratch");
        let (from, to) = (root.join("a"), root.join("out/b"));
        std::fs::write(&from, "one").expect("write");
        install(&from, &to).expect("installed");
        std::fs::write(&from, "two").expect("write");
        install(&from, &to).expect("installed again");
        assert_eq!(std::fs::read_to_string(&to).expect("read"), "two");
        let leftovers = std::fs::read_dir(root.join("out")).expect("dir").count();
        assert_eq!(leftovers, 1);
        let _ = std::fs::remove_dir_all(&root);
    }
}
