//! Unit tests of [`super::Session::apply`], without a window.
