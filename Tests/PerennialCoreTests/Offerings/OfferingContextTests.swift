import PerennialCore
import Testing

@Suite struct OfferingContextTests {
    @Test func storefrontCodesAreThreeLettersUpperCased() {
        #expect(OfferingContext.storefront("usa") == "USA")
        #expect(OfferingContext.storefront("DeU") == "DEU")
        for text in ["", "US", "USAA", "U1A", "ÜSA", "US ", "U-S"] {
            #expect(OfferingContext.storefront(text) == nil, "\(text)")
        }
    }
}
