/// The server's answers (``SubscriberResponse`` and its parts, ``SignedOffer``, ``IntroEligibility``)
/// are the package's one copy of the client API's wire types, shared with the server; an app reads
/// them through this module without importing a second one.
@_exported public import PerennialWire
