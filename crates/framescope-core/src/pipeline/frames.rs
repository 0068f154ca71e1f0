//! Per-frame tables (placeholder).
