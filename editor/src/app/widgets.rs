//! The inspector's number and colour widgets, which change a value only when the author
//! does. The inspector commits any difference its widgets make, but egui's sliders and
//! number fields clamp the value they show to their range, and its colour button writes
//! its own round trip through HSV back every frame: a value the file holds validly
//! outside a widget's range (a ramp stop at 1.2, a macro scale of a kilometre), or a
//! colour's last bits, would change by being looked at.
//!
//! A number typed outside a widget's range is refused, not clamped: the value stays, and
//! the status bar names the range ([`take_refusal`]).
//!
//! And the editor's questions: a fixed window in the middle of the screen
//! ([`question`]).

use eframe::egui;
use std::ops::RangeInclusive;

/// A window that asks something, fixed in the middle of the screen: it neither folds
/// nor resizes.
pub(super) fn question(title: impl Into<egui::WidgetText>) -> egui::Window<'static> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

/// A path typed or chosen: the text field and its "Choose…" button, on one row; whether
/// the button was clicked.
pub(super) fn path_field(ui: &mut egui::Ui, path: &mut String) -> bool {
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(path).desired_width(300.0));
        ui.button("Choose…").clicked()
    })
    .inner
}

/// A slider over `range` that keeps what the author drags inside it and refuses a typed
/// number outside it, never changing the value shown.
pub(super) fn slider<'a, N: egui::emath::Numeric>(
    ui: &egui::Ui,
    value: &'a mut N,
    range: RangeInclusive<N>,
) -> egui::Slider<'a> {
    let parser = refusing(ui.ctx(), &range);
    egui::Slider::new(value, range)
        .clamping(egui::SliderClamping::Edits)
        .custom_parser(parser)
}

/// A number field with no range.
pub(super) fn drag<N: egui::emath::Numeric>(value: &mut N) -> egui::DragValue<'_> {
    egui::DragValue::new(value).clamp_existing_to_range(false)
}

/// A number field that keeps what the author drags inside `range` and refuses a typed
/// number outside it, never changing the value shown.
pub(super) fn drag_in<'a, N: egui::emath::Numeric>(
    ui: &egui::Ui,
    value: &'a mut N,
    range: RangeInclusive<N>,
) -> egui::DragValue<'a> {
    let parser = refusing(ui.ctx(), &range);
    drag(value).range(range).custom_parser(parser)
}

/// Where a refused number waits for the status bar.
fn refusal_id() -> egui::Id {
    egui::Id::new("refused number")
}

/// What was refused since the last call: a typed number outside its widget's range,
/// with the range named.
pub(super) fn take_refusal(ctx: &egui::Context) -> Option<String> {
    ctx.data_mut(|d| d.remove_temp::<String>(refusal_id()))
}

/// Reads a typed number as egui does (spaces ignored, `−` as a minus), refusing one
/// outside `range` (and saying so for the status bar).
fn refusing<N: egui::emath::Numeric>(
    ctx: &egui::Context,
    range: &RangeInclusive<N>,
) -> impl Fn(&str) -> Option<f64> + 'static {
    let ctx = ctx.clone();
    let (lo, hi) = (range.start().to_f64(), range.end().to_f64());
    move |text| {
        let clean: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| if c == '−' { '-' } else { c })
            .collect();
        let x: f64 = clean.parse().ok()?;
        if (lo..=hi).contains(&x) {
            return Some(x);
        }
        let figure = tuft_graph::limits::figure;
        // A range open at one end (a length: any positive number) names its one end.
        let said = if hi >= f64::from(f32::MAX) {
            format!(
                "Not set: {clean} is below {}, the least it can be",
                figure(lo)
            )
        } else {
            format!(
                "Not set: {clean} is outside {} to {}, the range it can take",
                figure(lo),
                figure(hi)
            )
        };
        ctx.data_mut(|d| d.insert_temp(refusal_id(), said));
        None
    }
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
