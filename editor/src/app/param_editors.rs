//! The inspector's editor for one node parameter, by kind: sliders, choices, text, ramp
//! stops, a file with a chooser, and the curve editor.

use super::widgets::{colour, drag_in};
use eframe::egui;
use tuft_graph::ParamValue;
use tuft_graph::node::{MAX_CURVE_POINTS, ParamKind, RampStop};

/// What an editor asks for.
pub(super) enum ParamEdit {
    /// This value.
    Value(ParamValue),
    /// A file chosen in a dialog (which runs off the UI thread).
    ChooseFile,
}

/// An editor for one parameter; returns what was asked for, if anything.
pub(super) fn param_editor(
    ui: &mut egui::Ui,
    kind: ParamKind,
    current: ParamValue,
) -> Option<ParamEdit> {
    if let (ParamKind::File { .. }, ParamValue::Text(t)) = (kind, &current) {
        return file_editor(ui, t.clone());
    }
    value_editor(ui, kind, current).map(ParamEdit::Value)
}

fn value_editor(ui: &mut egui::Ui, kind: ParamKind, current: ParamValue) -> Option<ParamValue> {
    match (kind, current) {
        (ParamKind::Float { min, max, .. }, ParamValue::Float(mut x)) => ui
            .add(egui::Slider::new(&mut x, min..=max).clamping(egui::SliderClamping::Never))
            .changed()
            .then_some(ParamValue::Float(x)),
        (ParamKind::Int { min, max, .. }, ParamValue::Int(mut x)) => ui
            .add(drag_in(ui, &mut x, min..=max))
            .changed()
            .then_some(ParamValue::Int(x)),
        (ParamKind::Choice { options, .. }, ParamValue::Choice(c)) => {
            let mut chosen = c.clone();
            egui::ComboBox::from_id_salt(ui.next_auto_id())
                .selected_text(&chosen)
                .show_ui(ui, |ui| {
                    for o in options {
                        ui.selectable_value(&mut chosen, (*o).to_owned(), *o);
                    }
                });
            (chosen != c).then_some(ParamValue::Choice(chosen))
        }
        (ParamKind::Text { .. }, ParamValue::Text(mut t)) => ui
            .text_edit_singleline(&mut t)
            .changed()
            .then_some(ParamValue::Text(t)),
        (ParamKind::Ramp, ParamValue::Ramp(stops)) => ramp_editor(ui, stops).map(ParamValue::Ramp),
        (ParamKind::Curve, ParamValue::Curve(points)) => {
            curve_editor(ui, points).map(ParamValue::Curve)
        }
        _ => None,
    }
}

/// The path as text (relative to the graph file's folder), and a button that asks for a
/// file dialog.
fn file_editor(ui: &mut egui::Ui, mut path: String) -> Option<ParamEdit> {
    ui.vertical(|ui| {
        let typed = ui
            .add(egui::TextEdit::singleline(&mut path).hint_text("no file"))
            .on_hover_text("Relative to the graph file's folder")
            .changed();
        if ui.button("Choose…").clicked() {
            Some(ParamEdit::ChooseFile)
        } else {
            typed.then_some(ParamEdit::Value(ParamValue::Text(path)))
        }
    })
    .inner
}

fn ramp_editor(ui: &mut egui::Ui, mut stops: Vec<RampStop>) -> Option<Vec<RampStop>> {
    let mut changed = false;
    ui.vertical(|ui| {
        for stop in &mut stops {
            ui.horizontal(|ui| {
                changed |= ui
                    .add(drag_in(ui, &mut stop.pos, 0.0..=1.0).speed(0.005))
                    .changed();
                changed |= colour(ui, &mut stop.color).changed();
            });
        }
        if ui.small_button("+ stop").clicked() {
            stops.push(RampStop {
                pos: 1.0,
                color: [1.0; 3],
            });
            changed = true;
        }
    });
    stops.sort_by(|a, b| a.pos.total_cmp(&b.pos));
    changed.then_some(stops)
}

/// Side of a curve point's handle, in points.
const HANDLE: f32 = 5.0;

/// The curve drawn over `[0, 1]²` with its points as handles (drag to move, double-click
/// the empty plot to add, right-click a point to remove), and each point's numbers below.
fn curve_editor(ui: &mut egui::Ui, mut points: Vec<[f32; 2]>) -> Option<Vec<[f32; 2]>> {
    let mut changed = false;
    ui.vertical(|ui| {
        let (rect, plot) = ui.allocate_exact_size(egui::vec2(180.0, 130.0), egui::Sense::click());
        let inner = rect.shrink(HANDLE);
        let to_screen = |p: [f32; 2]| {
            egui::pos2(
                inner.left() + p[0] * inner.width(),
                inner.bottom() - p[1] * inner.height(),
            )
        };
        let from_screen = |s: egui::Pos2| {
            [
                ((s.x - inner.left()) / inner.width()).clamp(0.0, 1.0),
                ((inner.bottom() - s.y) / inner.height()).clamp(0.0, 1.0),
            ]
        };
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals();
        painter.rect_filled(rect, 2.0, visuals.extreme_bg_color);
        let grid = egui::Stroke::new(1.0, visuals.faint_bg_color);
        for k in 1..4 {
            let t = k as f32 / 4.0;
            painter.line_segment([to_screen([t, 0.0]), to_screen([t, 1.0])], grid);
            painter.line_segment([to_screen([0.0, t]), to_screen([1.0, t])], grid);
        }
        let shape = tuft_graph::nodes::CurveShape::new(&points);
        let line: Vec<egui::Pos2> = (0..=64)
            .map(|i| {
                let x = i as f32 / 64.0;
                to_screen([x, shape.at(x).clamp(-0.05, 1.05)])
            })
            .collect();
        painter.add(egui::Shape::line(
            line,
            egui::Stroke::new(1.5, visuals.strong_text_color()),
        ));
        let mut remove = None;
        for (k, p) in points.iter_mut().enumerate() {
            let centre = to_screen([p[0].clamp(0.0, 1.0), p[1].clamp(0.0, 1.0)]);
            let handle = egui::Rect::from_center_size(centre, egui::vec2(2.0, 2.0) * HANDLE);
            let resp = ui.interact(handle, plot.id.with(k), egui::Sense::click_and_drag());
            if resp.dragged()
                && let Some(pos) = resp.interact_pointer_pos()
            {
                *p = from_screen(pos);
                changed = true;
            }
            if resp.secondary_clicked() {
                remove = Some(k);
            }
            let fill = if resp.hovered() || resp.dragged() {
                visuals.selection.bg_fill
            } else {
                visuals.widgets.inactive.fg_stroke.color
            };
            painter.circle_filled(centre, HANDLE - 1.0, fill);
        }
        if plot.double_clicked()
            && let Some(pos) = plot.interact_pointer_pos()
            && points.len() < MAX_CURVE_POINTS
        {
            points.push(from_screen(pos));
            changed = true;
        }
        plot.on_hover_text(
            "Drag a point to move it; double-click to add one; right-click a point to \
             remove it",
        );
        if let Some(k) = remove
            && points.len() > 2
        {
            points.remove(k);
            changed = true;
        }
        // The numbers, for exact values.
        let mut remove = None;
        for (k, p) in points.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                changed |= ui
                    .add(egui::DragValue::new(&mut p[0]).speed(0.005).prefix("in "))
                    .changed();
                changed |= ui
                    .add(egui::DragValue::new(&mut p[1]).speed(0.005).prefix("out "))
                    .changed();
                if ui.small_button("Remove").clicked() {
                    remove = Some(k);
                }
            });
        }
        if let Some(k) = remove
            && points.len() > 2
        {
            points.remove(k);
            changed = true;
        }
        if points.len() < MAX_CURVE_POINTS && ui.small_button("+ point").clicked() {
            // Halfway along the widest gap, on the curve: adding changes nothing yet.
            let x = points
                .windows(2)
                .max_by(|a, b| (a[1][0] - a[0][0]).total_cmp(&(b[1][0] - b[0][0])))
                .map_or(0.5, |w| 0.5 * (w[0][0] + w[1][0]));
            points.push([x, shape.at(x)]);
            changed = true;
        }
    });
    points.sort_by(|a, b| a[0].total_cmp(&b[0]));
    changed.then_some(points)
}
