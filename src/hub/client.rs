//! An outside Hub engine as a process: started, spoken to, timed, stopped.
