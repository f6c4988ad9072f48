//! Account (document 1, "Me", "Appearance", "Authentication"): the owner,
//! their appearance settings, API tokens, web sessions and password.

mod api;
pub(crate) mod appearance;
pub(crate) mod owner;
pub(crate) mod password;
pub(crate) mod sessions;
pub(crate) mod tables;
pub(crate) mod tokens;

pub use api::{Account, ApiTokenInput, PasswordChange, UsernameChange};
pub(crate) use api::{OPERATIONS, TOKEN_USES};
pub use appearance::{Accent, Appearance, AppearanceChange, CodeTheme, Theme};
pub use owner::{Me, OwnerChange, OwnerInit};
pub use sessions::{SignInLink, SignedIn};
pub use tokens::NewToken;
