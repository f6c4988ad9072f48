//! The documents pages over a real socket.
