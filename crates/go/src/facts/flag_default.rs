//! A numeric flag default as one file writes it (`flag_default`): a constant expression as
//! postfix tokens, evaluated per project.

/// One token of a numeric constant expression in postfix order.
#[derive(Debug, Clone, PartialEq)]
pub enum NumTok {
    Int(i128),
    Float(f64),
    /// A constant: `Name` or `pkg.Name`, evaluated per project.
    Ref(Option<String>, String),
    /// A binary operator: `+ - * / % << >> & |`.
    Op(String),
    Neg,
    /// A conversion to a float type (`float64(x)`); integer conversions truncate.
    ToFloat,
    ToInt,
}
