//! Ending on SIGINT, SIGTERM or SIGHUP without leaving half-written files.

/// What else a signal does before the process ends (see
/// [`also_on_signals`]).
static ALSO_ON_SIGNALS: std::sync::Mutex<Vec<fn()>> = std::sync::Mutex::new(Vec::new());

/// Has SIGINT, SIGTERM and SIGHUP also call `action` before the process
/// ends (after [`remove_unfinished_files_on_signals`]): for what the
/// process started and must not leave behind.
pub fn also_on_signals(action: fn()) {
    if let Ok(mut actions) = ALSO_ON_SIGNALS.lock() {
        actions.push(action);
    }
}

/// From now on, SIGINT, SIGTERM and SIGHUP remove the temporary files of
/// any write under way (so the files they would replace stay as they were)
/// and then end the process as the signal would have. Call it first thing
/// in `main`. SIGKILL cannot be caught: after it a hidden `.PROGRAM-*.tmp`
/// file may remain beside an output, which is safe to delete.
pub fn remove_unfinished_files_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use signal_hook::iterator::Signals;
        // A thread of its own, not a signal handler, so that removing files
        // and waiting for a write in progress are allowed. It is started
        // first: the signals are taken over only once it runs, so they are
        // never caught with no one to act on them.
        let (send, receive) = std::sync::mpsc::channel::<Signals>();
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let Ok(mut signals) = receive.recv() else {
                    return;
                };
                if let Some(signal) = signals.forever().next() {
                    reel::abandon_unfinished_files();
                    let actions = ALSO_ON_SIGNALS.lock().map(|actions| actions.clone());
                    for action in actions.unwrap_or_default() {
                        action();
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        if spawned.is_ok() {
            if let Ok(signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) {
                let _ = send.send(signals);
            }
        }
    }
}
