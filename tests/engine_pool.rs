//! The pool of idle outside engine processes (`checkers_ga::play`): a process given back after
//! a game stays for the next game while anyone holds a lease, is reused, and is stopped when
//! the last lease is dropped; given back with no lease held, it is stopped at once. One test in
//! its own process, since the pool is the process's.

mod common;

use checkers_ga::play::{lease_engines, Outside, Player, DEFAULT_MOVE_TIMEOUT};
use checkers_ga::Program;
use common::{assert_none_left, have_python, manifest_dir, with_marker};

#[test]
fn idle_engines_stay_while_a_lease_is_held_are_reused_and_stop_with_the_last_lease() {
    if !have_python() {
        return;
    }
    let marker = format!("--marker=engine-pool-{}", std::process::id());
    let program = Program::new(vec![
        "python3".into(),
        manifest_dir()
            .join("tests/fake_engines/good.py")
            .display()
            .to_string(),
        marker.clone(),
    ]);
    let player = || Outside::new(program.clone(), Some(1), DEFAULT_MOVE_TIMEOUT);
    let pid_of = |o: &mut Outside| o.ready(&|| false).expect("the fake starts").pid();
    {
        let _session = lease_engines();
        let first = {
            let _batch = lease_engines();
            let mut o = player();
            let pid = pid_of(&mut o);
            o.game_over(false);
            pid
        };
        // The batch's lease is gone; the session's keeps the process, and the next game gets it.
        assert_eq!(with_marker(&marker).len(), 1);
        let mut o = player();
        assert_eq!(pid_of(&mut o), first, "the idle process is reused");
        o.game_over(false);
        // An abandoned game's process is killed, not kept.
        let mut o = player();
        assert_eq!(pid_of(&mut o), first);
        o.game_over(true);
        assert_none_left(&marker);
        let mut o = player();
        pid_of(&mut o);
        o.game_over(false);
        assert_eq!(with_marker(&marker).len(), 1);
    }
    // The last lease dropped: nothing idle is left.
    assert_none_left(&marker);
    // Given back with no lease held, a process is stopped at once.
    let mut o = player();
    pid_of(&mut o);
    o.game_over(false);
    assert_none_left(&marker);
}
