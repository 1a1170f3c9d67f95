//! Diagnostics: what validation and evaluation found wrong, named precisely enough for
//! the editor to badge the node and for a user to fix it.

use crate::link::NodeId;
use serde::Serialize;
use std::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a look; the material still bakes as authored.
    Warning,
    /// The material is wrong: a seam, a refused path, a broken file.
    Error,
}

/// What kind of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The file's format version is not one this build reads.
    Version,
    /// Two nodes share an id.
    DuplicateId,
    /// A node names a kind this build does not know.
    UnknownKind,
    /// A parameter is missing its type or out of range.
    BadParam,
    /// An input names a port the node does not have.
    UnknownPort,
    /// A link names a node or port that does not exist.
    DanglingLink,
    /// A link joins ports of different types.
    TypeMismatch,
    /// Links form a loop.
    Cycle,
    /// A constant or an evaluated field is NaN or infinite.
    NonFinite,
    /// A field does not meet itself at the edges of the repeat.
    Seam,
    /// A strand-layer port depends on a dynamic input.
    Dynamic,
    /// A density field leaves `[0, 1]`.
    DensityRange,
    /// A layer's settings are out of range.
    LayerSettings,
    /// A layer exceeds the strand or memory budget.
    Budget,
    /// The repeat size is not a positive length.
    Repeat,
    /// The graph asks for more than a limit allows (`crate::limits`).
    Limit,
    /// A file the graph reads (an Image's) is missing, unreadable or not chosen.
    File,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// How bad.
    pub severity: Severity,
    /// What kind.
    pub code: Code,
    /// The node to badge and frame, if one is to blame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<NodeId>,
    /// The material output affected (`pbr.base_color`, `strands.blades.length`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sink: Option<String>,
    /// The whole finding in words, including the path from the output to the culprit.
    pub message: String,
}

impl Diagnostic {
    /// An error.
    #[must_use]
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            node: None,
            sink: None,
            message: message.into(),
        }
    }

    /// A warning.
    #[must_use]
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    /// The same finding, blamed on `node`.
    #[must_use]
    pub fn at(mut self, node: NodeId) -> Self {
        self.node = Some(node);
        self
    }

    /// The same finding, about output `sink`.
    #[must_use]
    pub fn on(mut self, sink: impl fmt::Display) -> Self {
        self.sink = Some(sink.to_string());
        self
    }

    /// Whether this is an error.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev}: {}", self.message)
    }
}
