//! Port types and constant values.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of a port. A connection joins two ports of the same type, or a Float output
/// to a Color input (read as grey, as the peers do: [`PortType::accepts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PortType {
    /// One scalar.
    Float,
    /// Two scalars: a UV offset, a direction, a lean.
    Vec2,
    /// Linear RGB (or, on normal ports, a tangent-space vector).
    Color,
}

impl PortType {
    /// How many `f32` channels a value of this type holds.
    #[must_use]
    pub const fn channels(self) -> usize {
        match self {
            Self::Float => 1,
            Self::Vec2 => 2,
            Self::Color => 3,
        }
    }

    /// The zero value of this type.
    #[must_use]
    pub const fn zero(self) -> Value {
        match self {
            Self::Float => Value::Float(0.0),
            Self::Vec2 => Value::Vec2([0.0; 2]),
            Self::Color => Value::Color([0.0; 3]),
        }
    }

    /// Whether an input of this type takes a link from an output of type `from`: the
    /// same type, or a Float where a Color is expected (the value on every channel).
    #[must_use]
    pub fn accepts(self, from: Self) -> bool {
        self == from || (self == Self::Color && from == Self::Float)
    }

    /// Every port type, in display order.
    pub const ALL: [Self; 3] = [Self::Float, Self::Vec2, Self::Color];
}

impl fmt::Display for PortType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Float => "Float",
            Self::Vec2 => "Vec2",
            Self::Color => "Color",
        })
    }
}

/// A constant held by an unconnected input.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// A scalar.
    Float(f32),
    /// A pair.
    Vec2([f32; 2]),
    /// Linear RGB.
    Color([f32; 3]),
}

impl Value {
    /// The type of this value.
    #[must_use]
    pub const fn ty(&self) -> PortType {
        match self {
            Self::Float(_) => PortType::Float,
            Self::Vec2(_) => PortType::Vec2,
            Self::Color(_) => PortType::Color,
        }
    }

    /// The value's channels, padded with zeros to three.
    #[must_use]
    pub const fn channels(&self) -> [f32; 3] {
        match *self {
            Self::Float(x) => [x, 0.0, 0.0],
            Self::Vec2([x, y]) => [x, y, 0.0],
            Self::Color(c) => c,
        }
    }

    /// Whether every channel is finite (no NaN, no infinity).
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.channels().iter().all(|c| c.is_finite())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Float(x) => write!(f, "{x}"),
            Self::Vec2([x, y]) => write!(f, "({x}, {y})"),
            Self::Color([r, g, b]) => write!(f, "({r}, {g}, {b})"),
        }
    }
}
