using System.Linq;
using System.Text.Json.Nodes;

namespace StoreSuppliers;

/// <summary>
/// What a supplier order's <c>rerouted</c> history entry says: its items went to a backup supplier (the link's
/// alternates). The first order's entry, also the data of the <c>supplierOrder.rerouted</c> event (docs/events.md).
/// </summary>
public sealed class ReroutedEntry
{
    internal ReroutedEntry(JsonObject details)
    {
        FromSupplierOrderId = Text(details["from"]?["supplierOrderId"]);
        FromConnectionId = Text(details["from"]?["connectionId"]);
        ToSupplierOrderId = Text(details["to"]?["supplierOrderId"]);
        ToConnectionId = Text(details["to"]?["connectionId"]);
        ToSupplierKey = Text(details["to"]?["supplierKey"]);
        Reason = new ReviewReason(Text(details["reason"]));
        By = Text(details["by"]);
        CostDifferenceMinor = details["costDifferenceMinor"]?.GetValue<long>() ?? 0;
        Currency = Text(details["currency"]);
    }

    /// <summary>The paused order whose items moved (now cancelled).</summary>
    public string FromSupplierOrderId { get; }

    /// <summary>The paused order's connection.</summary>
    public string FromConnectionId { get; }

    /// <summary>The alternate's new supplier order.</summary>
    public string ToSupplierOrderId { get; }

    /// <summary>The alternate's connection.</summary>
    public string ToConnectionId { get; }

    /// <summary>The alternate's supplier, such as <c>cj</c>.</summary>
    public string ToSupplierKey { get; }

    /// <summary>The review reason that was rerouted.</summary>
    public ReviewReason Reason { get; }

    /// <summary><c>rule</c> (the connection's reroute rule) or <c>manual</c> (RerouteAsync).</summary>
    public string By { get; }

    /// <summary>The alternate's cost less the primary's, in minor units of <see cref="Currency"/>.</summary>
    public long CostDifferenceMinor { get; }

    /// <summary>ISO 4217 code of the cost difference.</summary>
    public string Currency { get; }

    private static string Text(JsonNode? node) => node?.GetValue<string>() ?? "";
}

/// <summary>Reading a supplier order's reroute.</summary>
public static class SupplierOrderRerouting
{
    /// <summary>The order's <c>rerouted</c> history entry, or null when its items were not rerouted.</summary>
    public static ReroutedEntry? Rerouted(this SupplierOrder order)
    {
        var entry = order.Events.FirstOrDefault(e => e.Type == "rerouted");
        return entry is null ? null : new ReroutedEntry(entry.Details);
    }
}
