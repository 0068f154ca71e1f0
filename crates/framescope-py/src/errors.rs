//! Failures as the package's exceptions (`framescope/_errors.py`): a file that does
//! not exist is a `CaptureNotFoundError` (a `FileNotFoundError`), a file that cannot
//! be read or analysed a `CaptureError` (a `ValueError`), a refused option an
//! `OptionError` (a `ValueError`); all are `FramescopeError`s with `.path` and `.line`.

use framescope_core::ingest::{LoadError, LoadErrorKind};
use framescope_core::pipeline::BadOption;
use pyo3::prelude::*;
use std::path::Path;

/// What went wrong, before it becomes a Python exception (built where the GIL is not
/// held).
#[derive(Debug)]
pub enum Failure {
    /// The file does not exist.
    NotFound { message: String, path: String },
    /// The file cannot be read or analysed.
    Capture { message: String, path: Option<String>, line: Option<u64> },
    /// An option's value was refused.
    Option { message: String, option: String },
    /// Anything else (a table that could not be built).
    Other(String),
}

impl Failure {
    /// A load error: not found, or bad input naming the file and line.
    pub fn load(e: &LoadError) -> Self {
        let path = e.path.display().to_string();
        match &e.kind {
            LoadErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                Self::NotFound { message: e.to_string(), path }
            }
            _ => Self::Capture { message: e.to_string(), path: Some(path), line: e.line },
        }
    }

    /// A file's failure from its message, naming `path`.
    pub fn capture(path: &Path, message: String, line: Option<u64>) -> Self {
        Self::Capture { message, path: Some(path.display().to_string()), line }
    }

    /// A refused option.
    pub fn option(bad: &BadOption) -> Self {
        Self::Option { message: bad.to_string(), option: bad.option.to_owned() }
    }

    /// An option refused with a message of the binding's own.
    pub fn option_message(option: &str, message: impl Into<String>) -> Self {
        Self::Option { message: format!("{option}: {}", message.into()), option: option.to_owned() }
    }

    /// The Python exception.
    pub fn into_py(self, py: Python<'_>) -> PyErr {
        match self.exception(py) {
            Ok(e) | Err(e) => e,
        }
    }

    fn exception(self, py: Python<'_>) -> PyResult<PyErr> {
        let errors = py.import("framescope._errors")?;
        let kw = pyo3::types::PyDict::new(py);
        let (class, message) = match self {
            Self::NotFound { message, path } => {
                kw.set_item("path", path)?;
                ("CaptureNotFoundError", message)
            }
            Self::Capture { message, path, line } => {
                kw.set_item("path", path)?;
                kw.set_item("line", line)?;
                ("CaptureError", message)
            }
            Self::Option { message, option } => {
                kw.set_item("option", option)?;
                ("OptionError", message)
            }
            Self::Other(message) => ("FramescopeError", message),
        };
        let exc = errors.getattr(class)?.call((message,), Some(&kw))?;
        Ok(PyErr::from_value(exc))
    }
}

/// A result whose failure becomes the package's exception.
pub trait IntoPy<T> {
    /// The value, or the exception.
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, Failure> {
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|f| f.into_py(py))
    }
}
