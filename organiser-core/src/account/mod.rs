//! Account (document 1, "Me", "Appearance", "Authentication"): the owner,
//! their appearance settings, API tokens, web sessions and password.

pub(crate) mod appearance;
pub(crate) mod auth;
pub(crate) mod owner;
pub(crate) mod password;
pub(crate) mod sessions;
pub(crate) mod tokens;

pub use appearance::{Appearance, AppearanceChange};
pub use auth::Auth;
pub use owner::{Me, OwnerChange, OwnerInit};
pub use sessions::SignedIn;
pub use tokens::{ApiToken, NewToken};
