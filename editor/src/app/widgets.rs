//! The inspector's number and colour widgets, which change a value only when the author
//! does. The inspector commits any difference its widgets make, but egui's sliders and
//! number fields clamp the value they show to their range, and its colour button writes
//! its own round trip through HSV back every frame: a value the file holds validly
//! outside a widget's range (a ramp stop at 1.2, a macro scale of a kilometre), or a
//! colour's last bits, would change by being looked at.

use eframe::egui;
use std::ops::RangeInclusive;

/// A slider over `range` that clamps what the author drags to it, never the value shown.
pub(super) fn slider<N: egui::emath::Numeric>(
    value: &mut N,
    range: RangeInclusive<N>,
) -> egui::Slider<'_> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// A number field clamping what the author types or drags to its range (if it is given
/// one), never the value shown.
pub(super) fn drag<N: egui::emath::Numeric>(value: &mut N) -> egui::DragValue<'_> {
    egui::DragValue::new(value).clamp_existing_to_range(false)
}

/// A colour button that writes `rgb` only when the author picks a colour.
pub(super) fn colour(ui: &mut egui::Ui, rgb: &mut [f32; 3]) -> egui::Response {
    let mut shown = *rgb;
    let response = ui.color_edit_button_rgb(&mut shown);
    if response.changed() {
        *rgb = shown;
    }
    response
}
