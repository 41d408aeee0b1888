namespace StoreSuppliers.Tests;

/// <summary>
/// Returns on the store's side as a C# program calls them: a part not shipped yet cannot be returned
/// (InvalidStateException invalidState), and its list of returns is empty; a supplier order not paused by a late
/// cancel names no next action.
/// </summary>
[Collection("service")]
public sealed class ReturnTests(ServiceFixture svc)
{
    [Fact]
    public async Task A_part_not_shipped_yet_has_no_return()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var so = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, new SubmitOrderPartRequest { PayNow = true });
        Assert.Null(so.NextAction);

        var notShipped = await Assert.ThrowsAsync<InvalidStateException>(() => store.Suppliers.Returns.RecordAsync(shop.StoreId, so.Id, new RecordSupplierOrderReturnRequest
        {
            Reason = SupplierOrderReturnReason.Damaged,
            Items = [new OpenSupplierClaimRequestItem { ItemId = order.Items![0].Id, Quantity = 1 }],
            Refund = new RecordSupplierOrderReturnRequestRefund { AmountMinor = 100 },
        }));
        Assert.Equal((409, "invalidState"), (notShipped.StatusCode, notShipped.Code));
        Assert.Empty((await store.Suppliers.Returns.ListAsync(shop.StoreId, so.Id)).Items);
    }
}
