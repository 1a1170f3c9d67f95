//! Curve: a float remapped through points the author places, joined by a smooth curve
//! that never overshoots them.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::value::PortType;

/// `out = curve(in)`: monotone cubic (PCHIP) through the points, flat beyond the ends.
pub struct Curve;

const PARAMS: &[ParamDesc] = &[ParamDesc {
    name: "points",
    doc: "Where inputs (across) go (up); drag them in the inspector",
    kind: ParamKind::Curve,
}];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Curve",
    doc: "Remaps a value through a curve of points you place",
    category: Category::Convert,
    params: PARAMS,
};

impl NodeKind for Curve {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::float("in", 0.5, "The value to remap")]
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new(
            "out",
            PortType::Float,
            "The remapped value",
        )]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let shape = Shape::new(&p.curve("points"));
        let input = ctx.input(0);
        vec![par_field(PortType::Float, ctx.len(), |i| {
            [shape.at(input.get(i)[0]), 0.0, 0.0]
        })]
    }
}

/// Points sorted by `x` with a tangent at each: the curve, ready to sample.
#[derive(Debug, Clone)]
pub struct Shape {
    points: Vec<[f32; 2]>,
    tangents: Vec<f32>,
}

impl Shape {
    /// The curve through `points` (sorted by `x`; at least one).
    #[must_use]
    pub fn new(points: &[[f32; 2]]) -> Self {
        let points: Vec<[f32; 2]> = if points.is_empty() {
            crate::node::identity_curve()
        } else {
            points.to_vec()
        };
        let n = points.len();
        let slope = |k: usize| {
            let dx = points[k + 1][0] - points[k][0];
            if dx > 0.0 {
                (points[k + 1][1] - points[k][1]) / dx
            } else {
                0.0
            }
        };
        let mut tangents = vec![0.0; n];
        if n >= 2 {
            tangents[0] = slope(0);
            tangents[n - 1] = slope(n - 2);
            for k in 1..n - 1 {
                let (d0, d1) = (slope(k - 1), slope(k));
                let (h0, h1) = (
                    points[k][0] - points[k - 1][0],
                    points[k + 1][0] - points[k][0],
                );
                // PCHIP: a weighted harmonic mean where the slopes agree, flat at a
                // turn, so the curve never overshoots a point.
                tangents[k] = if d0 * d1 > 0.0 {
                    let (w0, w1) = (2.0 * h1 + h0, h1 + 2.0 * h0);
                    (w0 + w1) / (w0 / d0 + w1 / d1)
                } else {
                    0.0
                };
            }
        }
        Self { points, tangents }
    }

    /// The curve at `x`.
    #[must_use]
    pub fn at(&self, x: f32) -> f32 {
        let p = &self.points;
        let n = p.len();
        if x.is_nan() {
            return p[0][1];
        }
        if x <= p[0][0] {
            return p[0][1];
        }
        if x >= p[n - 1][0] {
            return p[n - 1][1];
        }
        // The segment `k .. k + 1` holding x.
        let k = p
            .partition_point(|q| q[0] <= x)
            .saturating_sub(1)
            .min(n - 2);
        let h = p[k + 1][0] - p[k][0];
        if h <= 0.0 {
            return p[k + 1][1];
        }
        let t = (x - p[k][0]) / h;
        let (t2, t3) = (t * t, t * t * t);
        let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
        let h10 = t3 - 2.0 * t2 + t;
        let h01 = -2.0 * t3 + 3.0 * t2;
        let h11 = t3 - t2;
        h00 * p[k][1]
            + h10 * h * self.tangents[k]
            + h01 * p[k + 1][1]
            + h11 * h * self.tangents[k + 1]
    }
}

#[cfg(test)]
mod tests {
    use super::Shape;
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::value::Value;

    #[test]
    fn passes_through_its_points_and_is_flat_beyond_them() {
        let pts = [[0.2, 0.1], [0.5, 0.9], [0.8, 0.4]];
        let s = Shape::new(&pts);
        for [x, y] in pts {
            assert!((s.at(x) - y).abs() < 1e-6, "{x}");
        }
        assert_eq!(s.at(-3.0), 0.1);
        assert_eq!(s.at(7.0), 0.4);
        assert_eq!(s.at(f32::NAN), 0.1);
    }

    #[test]
    fn never_overshoots_between_points() {
        let pts = [[0.0, 0.0], [0.1, 0.0], [0.2, 1.0], [0.9, 1.0], [1.0, 0.3]];
        let s = Shape::new(&pts);
        for i in 0..=1000 {
            let y = s.at(i as f32 / 1000.0);
            assert!((0.0..=1.0).contains(&y), "{y} at {i}");
        }
        // Monotone data gives a monotone curve.
        let s = Shape::new(&[[0.0, 0.0], [0.3, 0.05], [0.35, 0.9], [1.0, 1.0]]);
        let ys: Vec<f32> = (0..=200).map(|i| s.at(i as f32 / 200.0)).collect();
        assert!(ys.windows(2).all(|w| w[1] >= w[0] - 1e-6));
    }

    #[test]
    fn the_node_remaps_its_input_and_keeps_its_period() {
        let points = ParamValue::Curve(vec![[1.0, 0.0], [0.0, 1.0]]); // unsorted: an inversion
        for (x, want) in [(0.0, 1.0), (0.25, 0.75), (1.0, 0.0)] {
            let (g, id) = single(
                "Curve",
                &[("points", points.clone())],
                &[("in", Value::Float(x))],
            );
            let got = at(&g, id, "out", &[[0.5, 0.5]]).get(0)[0];
            assert!((got - want).abs() < 1e-5, "{x} → {got}");
        }
        let (mut g, _) = single("Curve", &[], &[]);
        let noise = g.add_node("Noise").unwrap();
        let curve = g.add_node("Curve").unwrap();
        link(&mut g, noise, "out", curve, "in");
        assert_eq!(period(&g, curve), crate::period::Period::Tiles(4));
    }

    #[test]
    fn a_curve_without_points_or_with_nan_is_reported() {
        for bad in [vec![], vec![[0.0, f32::NAN]]] {
            let (g, _) = single("Curve", &[("points", ParamValue::Curve(bad))], &[]);
            let r = crate::validate(&g);
            assert!(
                r.diagnostics.iter().any(|d| d.message.contains("points")),
                "{:#?}",
                r.diagnostics
            );
        }
    }
}
