//! A node's inline constants: number fields dragged at a speed that scales with the
//! value, or clicked and typed, and colour buttons.

use egui::Ui;
use tuft_graph::value::Value;

/// A number field on a node: dragged, at a speed that scales with the value (a
/// two-hundredth of it a point, never less than a five-thousandth of its usual range;
/// Shift for a tenth of that), or clicked and typed (Enter commits, Esc cancels).
/// Regression: every field crossed its range in 200 points, so a blade 0.06 m long, on a
/// port whose range is 0 to 1, jumped 0.06 → 0.21 → 0.36 under a small drag.
fn number_field(ui: &mut Ui, x: &mut f32, range: (f32, f32)) -> bool {
    let speed = drag_speed(*x, range);
    let response = ui.add(egui::DragValue::new(x).speed(speed).max_decimals(6));
    let response = response.on_hover_text(format!(
        "Drag, or click and type; usually {} to {}",
        tuft_graph::limits::figure(f64::from(range.0)),
        tuft_graph::limits::figure(f64::from(range.1))
    ));
    response.changed()
}

/// How far a number field's value moves a point of drag: a two-hundredth of the value,
/// at least a five-thousandth of its usual `range` (and never below 1e-5).
#[must_use]
pub fn drag_speed(x: f32, range: (f32, f32)) -> f64 {
    let value = if x.is_finite() { x.abs() } else { 0.0 };
    f64::from(
        (value / 200.0)
            .max((range.1 - range.0).abs() / 5000.0)
            .max(1e-5),
    )
}

/// An inline editor for an unlinked input's constant; returns the new value if edited.
pub(super) fn constant_editor(ui: &mut Ui, value: Value, range: (f32, f32)) -> Option<Value> {
    match value {
        Value::Float(mut x) => number_field(ui, &mut x, range).then_some(Value::Float(x)),
        Value::Vec2(mut v) => {
            let a = number_field(ui, &mut v[0], range);
            let b = number_field(ui, &mut v[1], range);
            (a || b).then_some(Value::Vec2(v))
        }
        Value::Color(mut c) => ui
            .color_edit_button_rgb(&mut c)
            .changed()
            .then_some(Value::Color(c)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_drag_moves_a_value_by_a_share_of_itself() {
        // A blade length of 6 cm on a port whose usual range is 0 to 1: a 30-point drag
        // moves it by under a centimetre, not 15.
        assert!(30.0 * super::drag_speed(0.06, (0.0, 1.0)) < 0.01);
        // A value at zero still moves, by its range.
        assert!((super::drag_speed(0.0, (0.0, 2.0)) - 0.0004).abs() < 1e-9);
        assert!(super::drag_speed(f32::NAN, (0.0, 1.0)) > 0.0);
        // A large value moves as fast as its size asks.
        assert!((super::drag_speed(400.0, (0.0, 1.0)) - 2.0).abs() < 1e-6);
    }
}
