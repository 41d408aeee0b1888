using System.Text.Json.Serialization.Metadata;
using System.Threading.Tasks;

namespace StoreSuppliers;

/// <summary>
/// Submit, retry, reroute or pay answered a supplier order paused for review (status <c>needsReview</c>). The call
/// itself succeeded; nothing more happens until a person or a changed input clears the cause. Read the order
/// again with GetAsync to follow it; retry it only when <see cref="Retryable"/> or a person says so.
/// </summary>
public sealed class SupplierOrderPausedException : StoreException
{
    internal SupplierOrderPausedException(SupplierOrder supplierOrder, ReviewReason reason)
        : base($"Supplier order {supplierOrder.Id} is paused for review: {reason}{(string.IsNullOrEmpty(supplierOrder.ReviewMessage) ? "" : ": " + supplierOrder.ReviewMessage)}")
    {
        SupplierOrder = supplierOrder;
        ReviewReason = reason;
    }

    /// <summary>The supplier order as the service answered it.</summary>
    public SupplierOrder SupplierOrder { get; }

    /// <summary>Why it stopped; a reason this version does not know is kept as it is (<c>IsKnown</c> is false).</summary>
    public ReviewReason ReviewReason { get; }

    /// <summary>The supplier's words, with anything sensitive removed.</summary>
    public string? ReviewMessage => SupplierOrder.ReviewMessage;

    /// <summary>Whether trying again with nothing changed may succeed (set by the service).</summary>
    public bool Retryable => SupplierOrder.Retryable;

    /// <summary>
    /// The order as answered, unless it is paused: a paused order is an answer of 200, but not a sent one. A 202 is the
    /// order as it is while the job works (a reroute's order is still paused then): returned, to follow with GetAsync.
    /// </summary>
    internal static async Task<SupplierOrder> NotPausedAsync(Task<StoreResponse> answer, JsonTypeInfo<SupplierOrder> info)
    {
        var response = await answer.ConfigureAwait(false);
        var order = response.Read(info);
        if (response.StatusCode != 202 && order.Status == SupplierOrderStatus.NeedsReview) throw new SupplierOrderPausedException(order, order.ReviewReason ?? ReviewReason.SupplierRefused);
        return order;
    }
}
