namespace StoreSuppliers.Tests;

/// <summary>
/// After shipping as a C# program calls it: claims on a supplier order (a part not shipped yet cannot be claimed:
/// InvalidStateException; its list is empty), and a delivery attention acknowledged by a reason it does not have
/// (InvalidStateException attentionChanged).
/// </summary>
[Collection("service")]
public sealed class ClaimTests(ServiceFixture svc)
{
    [Fact]
    public async Task Claims_and_the_delivery_attention_of_a_part_not_shipped_yet()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var so = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, new SubmitOrderPartRequest { PayNow = true });
        Assert.Null(so.DeliveryAttention);

        var notShipped = await Assert.ThrowsAsync<InvalidStateException>(() => store.Suppliers.Claims.OpenAsync(shop.StoreId, so.Id, new OpenSupplierClaimRequest
        {
            Reason = SupplierClaimReason.NotReceived,
            Expectation = SupplierClaimExpectation.Reship,
            Items = [new OpenSupplierClaimRequestItem { ItemId = order.Items![0].Id, Quantity = 1 }],
        }));
        Assert.Equal((409, "invalidState"), (notShipped.StatusCode, notShipped.Code));
        Assert.Empty((await store.Suppliers.Claims.ListAsync(shop.StoreId, so.Id)).Items);

        var stale = await Assert.ThrowsAsync<InvalidStateException>(() => store.Suppliers.Orders.AcknowledgeDeliveryAttentionAsync(shop.StoreId, so.Id, new AcknowledgeDeliveryAttentionRequest { Reason = DeliveryAttentionReason.NoMovement }));
        Assert.Equal((409, "attentionChanged"), (stale.StatusCode, stale.Code));
    }
}
