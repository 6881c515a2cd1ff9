//! The spec's six body types as the demo's drawings and catalogue know them.

crate::domain::text_enum!(
    /// The demo's drawings know the spec's six body types.
    Body {
        Sedan = "sedan",
        Hatchback = "hatchback",
        Crossover = "crossover",
        Wagon = "wagon",
        Coupe = "coupe",
        Pickup = "pickup",
    }
);

impl Body {
    /// The catalogue's body type.
    pub fn code(self) -> crate::domain::cars::BodyType {
        match self {
            Body::Sedan => crate::domain::cars::BodyType::SEDAN,
            Body::Hatchback => crate::domain::cars::BodyType::HATCHBACK,
            Body::Crossover => crate::domain::cars::BodyType::CROSSOVER,
            Body::Wagon => crate::domain::cars::BodyType::WAGON,
            Body::Coupe => crate::domain::cars::BodyType::COUPE,
            Body::Pickup => crate::domain::cars::BodyType::PICKUP,
        }
    }
}
