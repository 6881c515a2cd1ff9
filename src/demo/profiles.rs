//! Side profiles of the six body types, drawn by `car_art`: points are
//! (x from the rear 0 to the front 1, height above the ground, corner
//! radius), all in car lengths.

use super::body::Body;

/// A side profile: points are (x from the rear 0 to the front 1, height
/// above the ground, corner radius), all in car lengths.
pub struct Profile {
    pub scale: f32,
    pub body: &'static [(f32, f32, f32)],
    pub glass: &'static [(f32, f32, f32)],
    /// Pillars across the glass (x positions).
    pub pillars: &'static [f32],
    /// Door seams: (x at the window line, x at the sill).
    pub seams: &'static [(f32, f32)],
    pub wheels: [f32; 2],
    pub wheel_r: f32,
    pub shoulder: f32,
    /// Height of the dark plastic cladding along the sill, 0 for none.
    pub cladding: f32,
    pub rails: bool,
    pub spare: bool,
    pub bed: bool,
    pub head_lamp: (f32, f32),
    pub tail_lamp: (f32, f32),
}

#[rustfmt::skip]
pub fn profile(body: Body) -> Profile {
    match body {
        Body::Sedan => Profile {
            scale: 1.0,
            body: &[(0.0, 0.075, 0.02), (0.005, 0.175, 0.02), (0.03, 0.215, 0.03), (0.17, 0.228, 0.04), (0.355, 0.315, 0.07), (0.55, 0.317, 0.07), (0.71, 0.232, 0.02), (0.93, 0.198, 0.06), (1.0, 0.155, 0.03), (0.99, 0.07, 0.02), (0.93, 0.045, 0.0), (0.06, 0.045, 0.0)],
            glass: &[(0.215, 0.232, 0.01), (0.365, 0.302, 0.04), (0.545, 0.305, 0.04), (0.685, 0.236, 0.01)],
            pillars: &[0.475], seams: &[(0.475, 0.47), (0.69, 0.70), (0.285, 0.30)],
            wheels: [0.195, 0.805], wheel_r: 0.071, shoulder: 0.2, cladding: 0.0, rails: false,
            spare: false, bed: false, head_lamp: (0.965, 0.168), tail_lamp: (0.02, 0.192),
        },
        Body::Hatchback => Profile {
            scale: 0.88,
            body: &[(0.0, 0.075, 0.02), (0.0, 0.22, 0.02), (0.035, 0.315, 0.05), (0.16, 0.345, 0.06), (0.52, 0.345, 0.08), (0.69, 0.24, 0.02), (0.92, 0.2, 0.06), (1.0, 0.155, 0.03), (0.99, 0.07, 0.02), (0.93, 0.045, 0.0), (0.07, 0.045, 0.0)],
            glass: &[(0.05, 0.245, 0.01), (0.065, 0.305, 0.03), (0.17, 0.33, 0.04), (0.51, 0.332, 0.05), (0.665, 0.245, 0.01)],
            pillars: &[0.2, 0.44], seams: &[(0.44, 0.44), (0.675, 0.69), (0.225, 0.27)],
            wheels: [0.175, 0.815], wheel_r: 0.079, shoulder: 0.215, cladding: 0.0, rails: false,
            spare: false, bed: false, head_lamp: (0.962, 0.172), tail_lamp: (0.012, 0.245),
        },
        Body::Wagon => Profile {
            scale: 1.02,
            body: &[(0.0, 0.075, 0.02), (0.0, 0.2, 0.02), (0.015, 0.295, 0.03), (0.06, 0.317, 0.04), (0.55, 0.322, 0.08), (0.71, 0.232, 0.02), (0.93, 0.195, 0.06), (1.0, 0.155, 0.03), (0.99, 0.07, 0.02), (0.93, 0.045, 0.0), (0.06, 0.045, 0.0)],
            glass: &[(0.03, 0.232, 0.01), (0.04, 0.298, 0.02), (0.075, 0.306, 0.02), (0.54, 0.309, 0.05), (0.685, 0.236, 0.01)],
            pillars: &[0.255, 0.47], seams: &[(0.47, 0.465), (0.69, 0.70), (0.27, 0.295)],
            wheels: [0.19, 0.805], wheel_r: 0.07, shoulder: 0.2, cladding: 0.0, rails: true,
            spare: false, bed: false, head_lamp: (0.965, 0.168), tail_lamp: (0.01, 0.215),
        },
        Body::Crossover => Profile {
            scale: 0.98,
            body: &[(0.0, 0.09, 0.02), (0.0, 0.24, 0.03), (0.03, 0.33, 0.05), (0.13, 0.37, 0.06), (0.54, 0.372, 0.09), (0.7, 0.27, 0.02), (0.93, 0.235, 0.06), (1.0, 0.19, 0.03), (0.995, 0.085, 0.02), (0.93, 0.055, 0.0), (0.07, 0.055, 0.0)],
            glass: &[(0.045, 0.272, 0.01), (0.055, 0.322, 0.03), (0.14, 0.355, 0.04), (0.53, 0.357, 0.06), (0.675, 0.276, 0.01)],
            pillars: &[0.21, 0.455], seams: &[(0.455, 0.455), (0.685, 0.695), (0.235, 0.28)],
            wheels: [0.185, 0.81], wheel_r: 0.082, shoulder: 0.245, cladding: 0.1, rails: true,
            spare: false, bed: false, head_lamp: (0.965, 0.205), tail_lamp: (0.012, 0.27),
        },
        Body::Coupe => Profile {
            scale: 1.0,
            body: &[(0.0, 0.095, 0.015), (0.0, 0.34, 0.02), (0.015, 0.395, 0.02), (0.06, 0.405, 0.03), (0.6, 0.405, 0.05), (0.72, 0.3, 0.02), (0.96, 0.285, 0.03), (1.0, 0.25, 0.02), (1.0, 0.095, 0.02), (0.94, 0.06, 0.0), (0.06, 0.06, 0.0)],
            glass: &[(0.03, 0.305, 0.01), (0.035, 0.385, 0.01), (0.07, 0.39, 0.01), (0.59, 0.39, 0.03), (0.7, 0.305, 0.01)],
            pillars: &[0.25, 0.46], seams: &[(0.46, 0.46), (0.7, 0.71), (0.27, 0.29)],
            wheels: [0.18, 0.8], wheel_r: 0.088, shoulder: 0.29, cladding: 0.11, rails: true,
            spare: true, bed: false, head_lamp: (0.975, 0.262), tail_lamp: (0.006, 0.31),
        },
        Body::Pickup => Profile {
            scale: 1.08,
            body: &[(0.0, 0.095, 0.015), (0.0, 0.255, 0.01), (0.36, 0.255, 0.0), (0.37, 0.265, 0.0), (0.38, 0.375, 0.03), (0.575, 0.378, 0.04), (0.7, 0.28, 0.02), (0.96, 0.265, 0.03), (1.0, 0.225, 0.02), (1.0, 0.095, 0.02), (0.94, 0.06, 0.0), (0.06, 0.06, 0.0)],
            glass: &[(0.395, 0.277, 0.01), (0.4, 0.36, 0.015), (0.565, 0.362, 0.03), (0.675, 0.285, 0.01)],
            pillars: &[0.49], seams: &[(0.49, 0.49), (0.69, 0.7), (0.37, 0.37)],
            wheels: [0.17, 0.8], wheel_r: 0.085, shoulder: 0.24, cladding: 0.0, rails: false,
            spare: false, bed: true, head_lamp: (0.975, 0.24), tail_lamp: (0.004, 0.225),
        },
    }
}
